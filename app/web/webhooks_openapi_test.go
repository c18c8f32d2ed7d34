package web

import (
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/brandpack/brandpack/app"
)

// TestOpenAPIWebhooks: the document describes callback_url and every event
// type the service sends, with the Standard Webhooks headers; the event's
// job has the fields of the REST job body except the pack.
func TestOpenAPIWebhooks(t *testing.T) {
	doc := oaLoad(t)
	hooks, _ := doc["webhooks"].(map[string]any)
	var names []string
	for name, item := range hooks {
		names = append(names, name)
		post, _ := item.(map[string]any)["post"].(map[string]any)
		if post == nil {
			t.Fatalf("webhook %s has no post operation", name)
		}
		var headers []string
		for _, p := range post["parameters"].([]any) {
			pm := oaDeref(t, doc, p).(map[string]any)
			if pm["in"] != "header" || pm["required"] != true {
				t.Errorf("%s: parameter %v must be a required header", name, pm["name"])
			}
			headers = append(headers, pm["name"].(string))
		}
		sort.Strings(headers)
		if !slices.Equal(headers, []string{"webhook-id", "webhook-signature", "webhook-timestamp"}) {
			t.Errorf("%s: headers %v", name, headers)
		}
		schema := post["requestBody"].(map[string]any)["content"].(map[string]any)["application/json"].(map[string]any)["schema"]
		typ := oaDeref(t, doc, schema).(map[string]any)["properties"].(map[string]any)["type"].(map[string]any)["const"]
		if typ != name {
			t.Errorf("webhook %s: body type const %v", name, typ)
		}
	}
	sort.Strings(names)
	if want := []string{app.EventAnalysisFailed, app.EventAnalysisSucceeded, app.EventWebhookTest}; !slices.Equal(names, want) {
		t.Errorf("webhooks = %v, want %v", names, want)
	}

	req := oaDeref(t, doc, map[string]any{"$ref": "#/components/schemas/AnalyzeRequest"}).(map[string]any)
	if cb, _ := req["properties"].(map[string]any)["callback_url"].(map[string]any); cb["type"] != "string" ||
		slices.Contains(req["required"].([]any), any("callback_url")) {
		t.Errorf("AnalyzeRequest.callback_url = %v", cb)
	}

	// EventJob is JobBody without the pack.
	ej := oaDeref(t, doc, map[string]any{"$ref": "#/components/schemas/EventJob"}).(map[string]any)
	var props []string
	for p := range ej["properties"].(map[string]any) {
		props = append(props, p)
	}
	var fields []string
	typ := reflect.TypeFor[JobBody]()
	for i := range typ.NumField() {
		name, _, _ := strings.Cut(typ.Field(i).Tag.Get("json"), ",")
		if name != "pack" {
			fields = append(fields, name)
		}
	}
	sort.Strings(props)
	sort.Strings(fields)
	if !slices.Equal(props, fields) {
		t.Errorf("EventJob properties %v, JobBody fields without pack %v", props, fields)
	}
}
