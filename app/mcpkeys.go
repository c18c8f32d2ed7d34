package app

// Internal per-client keys (spec §2.4, §3.2). They identify the (user,
// mcp_client_id) pair server-side; calls made through MCP are attributed to
// the connection that holds the key. Only the hash is ever stored.

const internalKeyPrefix = "bdi_"

// NewInternalKey mints a fresh internal key and returns its stored form (the
// plaintext is discarded by callers: nothing ever presents it).
func NewInternalKey() (hash string) {
	return HashSecret(internalKeyPrefix + RandomString(apiKeyRandLen))
}
