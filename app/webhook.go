package app

import "time"

// Webhook event types (docs/webhooks.md).
const (
	EventAnalysisSucceeded = "analysis.succeeded"
	EventAnalysisFailed    = "analysis.failed"
	EventWebhookTest       = "webhook.test"
)

// Delivery states of the outbox.
const (
	DeliveryPending   = "pending"   // waiting for its next attempt
	DeliverySending   = "sending"   // claimed by a worker; pending again after a crash
	DeliveryDelivered = "delivered" // a 2xx answer
	DeliveryFailed    = "failed"    // out of retries
)

// WebhookEndpoint is an account-level URL that receives every job event.
type WebhookEndpoint struct {
	ID        string
	UserID    int64
	URL       string
	Secret    string // whsec_…; shown to the person once, at creation
	CreatedAt time.Time
}

// WebhookSecret is the account's own secret; it signs callback_url deliveries.
type WebhookSecret struct {
	UserID    int64
	Secret    string
	CreatedAt time.Time
	ShownAt   *time.Time
}

// WebhookDelivery is one message of the outbox. Its ID is the webhook-id
// header, the same on every attempt, so receivers can drop duplicates.
type WebhookDelivery struct {
	ID            string
	UserID        int64
	EndpointID    string // "" for a job's callback_url
	URL           string
	Event         string
	JobID         string
	Payload       []byte
	Status        string
	Attempts      int
	NextAttemptAt time.Time
	LastStatus    int    // HTTP status of the last attempt; 0 when there was no answer
	LastError     string // short client-safe reason of the last failure
	CreatedAt     time.Time
	FinishedAt    *time.Time
	Secret        string // the signing secret, filled in by ClaimWebhookDelivery
}
