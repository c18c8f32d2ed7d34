package views

// AuthForm is the state of a sign-in or sign-up form.
type AuthForm struct {
	Email    string
	ReturnTo string // safe same-origin path, or ""
	// Field errors, keyed "email", "password"; Error is a form-level message.
	Errors map[string]string
	Error  string
}

func (f AuthForm) err(field string) string { return f.Errors[field] }

func (f AuthForm) describedBy(field string) string {
	if f.Errors[field] != "" {
		return field + "-error"
	}
	return field + "-hint"
}
