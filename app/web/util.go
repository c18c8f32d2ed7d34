package web

import (
	"strconv"

	"github.com/brandpack/brandpack/app"
)

func itoa(n int) string { return strconv.Itoa(n) }

func notFound(msg string) error { return app.Errorf(app.ENOTFOUND, "%s", msg) }
