package views

import "github.com/brandpack/brandpack/app"

// DashboardData is the /app page.
type DashboardData struct {
	Usage  *app.Usage
	Recent []app.RequestLog
	Try    TryForm
}

// TryForm is the try-a-domain box.
type TryForm struct {
	Value string
	Error string
}

// JobData is the progress page of an analysis job.
type JobData struct {
	Job *app.Job
}

// ErrorData is a friendly error page: the app error's code and message,
// never internals.
type ErrorData struct {
	Status     int
	Code       string
	Message    string
	UpgradeURL string // set for quota_exceeded
	Used       int
	Limit      int
	Tier       string
}

func requestStatus(r app.RequestLog) string {
	if r.Code == "" {
		return "ok"
	}
	return r.Code
}

func cachedLabel(r app.RequestLog) string {
	if r.Code != "" {
		return "—"
	}
	if r.Cached {
		return "cached"
	}
	return "fresh"
}

func errorTitle(d ErrorData) string {
	switch d.Code {
	case app.EQUOTA:
		return "Monthly quota reached"
	case app.ENOTFOUND:
		return "Not found"
	case app.EFORBIDDEN:
		return "Not allowed"
	case app.EVALIDATION:
		return "Please check your input"
	case app.ESCRAPER:
		return "The site could not be analysed"
	case app.ETIMEOUT:
		return "The analysis took too long"
	case app.EINVALIDKEY:
		return "Please sign in"
	}
	return "Something went wrong"
}
