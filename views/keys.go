package views

import "github.com/brandpack/brandpack/app"

// KeysData is the API keys page.
type KeysData struct {
	Keys []*app.APIKey
	// NewKey is a plaintext key minted by the request being answered. It is
	// never stored: this one response is the only place it appears.
	NewKey   string
	NewKeyID int64
	Notice   string
	// Continue is where to go after noting a first key (a safe return_to).
	Continue string
	// BaseURL is the API origin for the curl example.
	BaseURL string
}

func activeKeys(keys []*app.APIKey) int {
	n := 0
	for _, k := range keys {
		if k.RevokedAt == nil {
			n++
		}
	}
	return n
}
