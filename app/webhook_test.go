package app_test

import (
	"strings"
	"testing"
	"time"

	"github.com/brandpack/brandpack/app"
)

// TestSignWebhookVector checks the signature against the published test
// vector of the Standard Webhooks specification.
func TestSignWebhookVector(t *testing.T) {
	got, err := app.SignWebhook("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "msg_p5jXN8AQM9LWM0D4loKWxJek",
		time.Unix(1614265330, 0), []byte(`{"test": 2432232314}`))
	if err != nil || got != "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=" {
		t.Fatalf("SignWebhook = %q, %v", got, err)
	}
	if _, err := app.SignWebhook("whsec_", "msg", time.Unix(1, 0), nil); err == nil {
		t.Fatal("an empty secret signed")
	}
	if _, err := app.SignWebhook("whsec_not base64!", "msg", time.Unix(1, 0), nil); err == nil {
		t.Fatal("a malformed secret signed")
	}
}

func TestNewWebhookSecret(t *testing.T) {
	a, b := app.NewWebhookSecret(), app.NewWebhookSecret()
	if !strings.HasPrefix(a, "whsec_") || len(a) != len("whsec_")+44 || a == b {
		t.Fatalf("secrets %q %q", a, b)
	}
	if _, err := app.SignWebhook(a, "msg_1", time.Now(), []byte("{}")); err != nil {
		t.Fatal(err)
	}
}

// TestRetryDelay is spec §7.3's schedule: 500 ms, doubling, capped at 30 s.
func TestRetryDelay(t *testing.T) {
	want := []time.Duration{500 * time.Millisecond, time.Second, 2 * time.Second, 4 * time.Second,
		8 * time.Second, 16 * time.Second, 30 * time.Second, 30 * time.Second}
	for i, w := range want {
		if got := app.RetryDelay(i + 1); got != w {
			t.Errorf("RetryDelay(%d) = %v, want %v", i+1, got, w)
		}
	}
}
