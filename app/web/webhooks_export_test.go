package web

import (
	"encoding/json"
	"testing"
)

// ValidateWebhookEvent checks a delivered event body against the schema
// the OpenAPI document gives its type (under "webhooks"), for the tests in
// package web_test that receive real deliveries.
func ValidateWebhookEvent(t *testing.T, body []byte) []string {
	t.Helper()
	doc := oaLoad(t)
	var ev struct {
		Type string `json:"type"`
	}
	if err := json.Unmarshal(body, &ev); err != nil {
		return []string{"body is not JSON: " + err.Error()}
	}
	hooks, _ := doc["webhooks"].(map[string]any)
	item, ok := hooks[ev.Type].(map[string]any)
	if !ok {
		return []string{"the OpenAPI document has no webhook " + ev.Type}
	}
	schema := item["post"].(map[string]any)["requestBody"].(map[string]any)["content"].(map[string]any)["application/json"].(map[string]any)["schema"]
	var val any
	_ = json.Unmarshal(body, &val)
	return oaValidator{doc: doc}.validate(schema, val, "#")
}
