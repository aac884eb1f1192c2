package api

import (
	"encoding/json"

	"github.com/labstack/echo/v4"
)

// plainJSON is echo's JSON serializer without HTML escaping: messages such
// as "want > 0" read as written instead of "want \u003e 0" (both are the
// same JSON; no answer of the API is meant to be embedded in HTML).
type plainJSON struct{ echo.DefaultJSONSerializer }

// Serialize writes i as JSON, <, > and & as they are.
func (plainJSON) Serialize(c echo.Context, i any, indent string) error {
	enc := json.NewEncoder(c.Response())
	enc.SetEscapeHTML(false)
	if indent != "" {
		enc.SetIndent("", indent)
	}
	return enc.Encode(i)
}
