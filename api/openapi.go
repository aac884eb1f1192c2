package api

import (
	_ "embed" // the OpenAPI document
	"net/http"

	"github.com/labstack/echo/v4"
)

// openAPIPath is the public route of the OpenAPI document.
const openAPIPath = "/openapi.yaml"

// openAPIDoc is the OpenAPI 3.0 document of the REST API.
//
//go:embed openapi.yaml
var openAPIDoc []byte

// openAPI serves the embedded OpenAPI document (no key needed).
func (s *Server) openAPI(c echo.Context) error {
	return c.Blob(http.StatusOK, "application/yaml", openAPIDoc)
}
