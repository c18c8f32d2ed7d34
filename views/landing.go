package views

import (
	"fmt"

	"github.com/brandpack/brandpack/app"
)

// LandingData is the / page.
type LandingData struct {
	Try TryForm
}

// PricingData is the /pricing page.
type PricingData struct {
	Plans   []app.Plan
	Current string // the signed-in user's plan, or ""
}

func curlExample(base string) string {
	return fmt.Sprintf("curl -H \"Authorization: Bearer $BRANDPACK_KEY\" \\\n  %s/api/v1/pack/example.com", base)
}

func mcpConfig(base string) string {
	return fmt.Sprintf(`{
  "mcpServers": {
    "brandpack": {
      "type": "http",
      "url": "%s/mcp"
    }
  }
}`, base)
}

func planLimit(p app.Plan) string {
	if p.MonthlyLimit == 1 {
		return "1 fresh extraction a month"
	}
	return fmt.Sprintf("%d fresh extractions a month", p.MonthlyLimit)
}
