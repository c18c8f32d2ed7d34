package mcp

// OpenSessions counts the server's MCP sessions (tests).
func OpenSessions(s *Server) int {
	n := 0
	for range s.sdk.Sessions() {
		n++
	}
	return n
}
