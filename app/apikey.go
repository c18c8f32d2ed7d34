package app

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"time"
)

// APIKey is a REST credential. Only the SHA-256 of the plaintext is stored:
// keys carry ~190 bits of entropy, so a fast hash is the standard choice (a
// slow password hash would add nothing but latency to every request).
type APIKey struct {
	ID         int64
	UserID     int64
	Prefix     string // first characters of the plaintext, for display
	Hash       string // hex SHA-256 of the plaintext
	CreatedAt  time.Time
	LastUsedAt *time.Time
	RevokedAt  *time.Time
}

const (
	apiKeyPrefix  = "bd_"
	apiKeyRandLen = 32 // base62 characters after the prefix; 35 characters in all
	displayLen    = 10 // "bd_" + 7
	base62        = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
)

// NewAPIKey returns a fresh plaintext key and its stored form (without IDs).
func NewAPIKey(userID int64, now time.Time) (plaintext string, key *APIKey) {
	plaintext = apiKeyPrefix + RandomString(apiKeyRandLen)
	return plaintext, &APIKey{
		UserID:    userID,
		Prefix:    plaintext[:displayLen],
		Hash:      HashSecret(plaintext),
		CreatedAt: now.UTC(),
	}
}

// HashSecret is the at-rest form of a high-entropy secret (API keys, codes,
// refresh tokens, session IDs).
func HashSecret(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// RandomString returns n base62 characters from crypto/rand, without modulo bias.
func RandomString(n int) string {
	out := make([]byte, 0, n)
	buf := make([]byte, n+n/2)
	for len(out) < n {
		rand.Read(buf) // never returns an error (Go ≥ 1.24)
		for _, b := range buf {
			if b < 248 { // 248 = 4*62: keeps the distribution uniform
				out = append(out, base62[b%62])
				if len(out) == n {
					break
				}
			}
		}
	}
	return string(out)
}

// LooksLikeAPIKey reports whether s has the form of a key (spec §2.3).
func LooksLikeAPIKey(s string) bool {
	if len(s) < 32 || s[:3] != apiKeyPrefix {
		return false
	}
	for i := 3; i < len(s); i++ {
		c := s[i]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z') {
			return false
		}
	}
	return true
}
