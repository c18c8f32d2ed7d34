package cli

import (
	"fmt"
	"io"
)

// runCV is filled in below (cross-validation over recorded Signals).
func runCV(w io.Writer, sites map[string]string, signalsDir string, folds int, seed int64, asJSON bool) error {
	return fmt.Errorf("eval --cv: not built yet")
}
