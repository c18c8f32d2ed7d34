// Command brandpack is a self-hosted brand pack service. See README.md.
package main

import (
	"context"
	"os"

	"github.com/brandpack/brandpack/app/cli"
)

func main() {
	os.Exit(cli.Main(context.Background(), os.Args[1:], os.Stdout, os.Stderr))
}
