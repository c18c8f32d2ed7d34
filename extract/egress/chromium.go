package egress

// ChromiumFlags returns the Chromium switches that force all of the browser's
// traffic through the proxy at proxyURL (Proxy.URL()). Keys are switch names
// without the leading "--", in go-rod launcher style:
//
//	for name, value := range egress.ChromiumFlags(proxy.URL()) {
//		if value == "" {
//			l = l.Set(flags.Flag(name)) // bare switch
//		} else {
//			l = l.Set(flags.Flag(name), value)
//		}
//	}
//
// which yields e.g. --host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1
// as one argv element. Values are literal: do not add shell quotes.
//
//   - proxy-server: every request, WebSocket and beacon goes to the proxy.
//   - proxy-bypass-list=<-loopback>: without it Chromium sends loopback
//     addresses direct, around the proxy.
//   - host-resolver-rules: fail-closed backstop; Chromium never resolves a
//     name itself (only the proxy's 127.0.0.1 is left alone).
//   - force-webrtc-ip-handling-policy=disable_non_proxied_udp: kept for
//     builds that read it, but Chrome/Chromium ignore it (content_shell
//     only). What closes WebRTC's UDP is the profile preference
//     webrtc.ip_handling_policy that extract writes before each launch,
//     plus a page script; see docs/egress.md.
//   - disable-quic (empty value: a bare switch; "--disable-quic=" is read
//     the same): no HTTP/3 or WebTransport UDP, which a TCP proxy cannot carry.
//
// The flags only apply to a Chromium that brandpack launches itself. A remote
// browser (--browser-url) must be started with them by its operator (its
// contexts use the Gateway, not a 127.0.0.1 proxy).
func ChromiumFlags(proxyURL string) map[string]string {
	return map[string]string{
		"proxy-server":                    proxyURL,
		"proxy-bypass-list":               "<-loopback>",
		"host-resolver-rules":             "MAP * ~NOTFOUND , EXCLUDE 127.0.0.1",
		"force-webrtc-ip-handling-policy": "disable_non_proxied_udp",
		"disable-quic":                    "",
	}
}
