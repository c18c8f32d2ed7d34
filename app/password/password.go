// Package password hashes account passwords with argon2id (PHC string form).
package password

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"fmt"
	"strings"

	"golang.org/x/crypto/argon2"

	"github.com/brandpack/brandpack/app"
)

// Parameters follow the OWASP recommendation for argon2id (m=19 MiB, t=2, p=1).
const (
	memoryKiB = 19 * 1024
	time_     = 2
	threads   = 1
	keyLen    = 32
	saltLen   = 16
	MinLength = 8
	MaxLength = 256
)

// Hash returns the PHC string of a password, or a validation_error when the
// password is too short or too long.
func Hash(pw string) (string, error) {
	if len(pw) < MinLength {
		return "", app.FieldError("password", "Use at least %d characters.", MinLength)
	}
	if len(pw) > MaxLength {
		return "", app.FieldError("password", "Use at most %d characters.", MaxLength)
	}
	salt := make([]byte, saltLen)
	rand.Read(salt)
	key := argon2.IDKey([]byte(pw), salt, time_, memoryKiB, threads, keyLen)
	b64 := base64.RawStdEncoding
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version, memoryKiB, time_, threads,
		b64.EncodeToString(salt), b64.EncodeToString(key)), nil
}

// Verify reports whether pw matches a PHC string made by Hash.
func Verify(pw, phc string) bool {
	parts := strings.Split(phc, "$")
	if len(parts) != 6 || parts[1] != "argon2id" {
		return false
	}
	var v int
	var m uint32
	var t uint32
	var p uint8
	if _, err := fmt.Sscanf(parts[2], "v=%d", &v); err != nil || v != argon2.Version {
		return false
	}
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &m, &t, &p); err != nil {
		return false
	}
	b64 := base64.RawStdEncoding
	salt, err1 := b64.DecodeString(parts[4])
	want, err2 := b64.DecodeString(parts[5])
	if err1 != nil || err2 != nil || len(want) == 0 {
		return false
	}
	got := argon2.IDKey([]byte(pw), salt, t, m, p, uint32(len(want)))
	return subtle.ConstantTimeCompare(got, want) == 1
}
