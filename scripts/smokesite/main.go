// Command smokesite serves one fixture site folder on a local address for
// `make image-smoke` (the container reaches it through --resolve).
package main

import (
	"flag"
	"log"
	"net/http"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:18181", "listen address")
	dir := flag.String("dir", "testdata/sites/brindlecote.org", "folder to serve")
	flag.Parse()
	log.Printf("serving %s on http://%s", *dir, *addr)
	log.Fatal(http.ListenAndServe(*addr, http.FileServer(http.Dir(*dir))))
}
