package api

import (
	"bytes"
	_ "embed" // the OpenAPI document
	"fmt"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"
	"go.yaml.in/yaml/v3"
)

// openAPIPath is the public route of the OpenAPI document.
const openAPIPath = "/openapi.yaml"

// openAPIDoc is the OpenAPI 3.0 document of the REST API.
//
//go:embed openapi.yaml
var openAPIDoc []byte

// openAPILocationLists are the paths in openAPIDoc of the arrays of an
// order's locations, whose maxItems is tdm.max_locations.
var openAPILocationLists = [][]string{
	{"components", "schemas", "TDMOrder", "properties", "origin_addresses", "maxItems"},
	{"components", "schemas", "TDMOrder", "properties", "destination_addresses", "maxItems"},
}

// openAPI serves the OpenAPI document (no key needed): the embedded one,
// with this server's limits (SetMaxLocations).
func (s *Server) openAPI(c echo.Context) error {
	doc := openAPIDoc
	if d := s.openAPIDoc.Load(); d != nil {
		doc = *d
	}
	return c.Blob(http.StatusOK, "application/yaml", doc)
}

// SetMaxLocations records tdmv1's tdm.max_locations, the most origins,
// and the most destinations, of one order (TDMOptions.MaxLocations), so
// that the document served at /openapi.yaml states it as the maxItems of
// an order's origin_addresses and destination_addresses; the file states
// the default, DefaultMaxLocations. n <= 0 means the default.
func (s *Server) SetMaxLocations(n int) {
	if n <= 0 {
		n = DefaultMaxLocations
	}
	doc, err := withMaxItems(openAPIDoc, n, openAPILocationLists...)
	if err != nil {
		// The embedded document is fixed at build time and tested.
		panic(err)
	}
	s.openAPIDoc.Store(&doc)
}

// withMaxItems returns a copy of doc with the integer at each YAML path
// (a maxItems) written as n, the rest of the text unchanged.
func withMaxItems(doc []byte, n int, paths ...[]string) ([]byte, error) {
	var root yaml.Node
	if err := yaml.Unmarshal(doc, &root); err != nil {
		return nil, err
	}
	lines := bytes.SplitAfter(doc, []byte("\n"))
	for _, path := range paths {
		v := &root
		if v.Kind == yaml.DocumentNode && len(v.Content) == 1 {
			v = v.Content[0]
		}
		for _, key := range path {
			var next *yaml.Node
			if v.Kind == yaml.MappingNode {
				for i := 0; i+1 < len(v.Content); i += 2 {
					if v.Content[i].Value == key {
						next = v.Content[i+1]
					}
				}
			}
			if next == nil {
				return nil, fmt.Errorf("openapi.yaml: no %v", path)
			}
			v = next
		}
		if v.Kind != yaml.ScalarNode || v.Line < 1 || v.Line > len(lines) {
			return nil, fmt.Errorf("openapi.yaml: %v is not a number", path)
		}
		line := lines[v.Line-1]
		at := v.Column - 1
		if at < 0 || !bytes.HasPrefix(line[at:], []byte(v.Value)) {
			return nil, fmt.Errorf("openapi.yaml: %v is not where the parser says", path)
		}
		lines[v.Line-1] = bytes.Join([][]byte{line[:at], []byte(strconv.Itoa(n)), line[at+len(v.Value):]}, nil)
	}
	return bytes.Join(lines, nil), nil
}
