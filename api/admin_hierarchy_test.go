package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// hierarchyAnswer mirrors xy2hierarchy's and xy2admininfo's collections.
type hierarchyAnswer struct {
	Type          string `json:"type"`
	TotalFeatures int    `json:"totalFeatures"`
	Features      []struct {
		Geometry   json.RawMessage `json:"geometry"`
		Properties json.RawMessage `json:"properties"`
	} `json:"features"`
}

// TestAdminHierarchy: the hierarchy at a point is, area by area, what the
// nine xy2admininfo requests the console used to make answer (each area
// once, admin0 first): properties byte for byte, and with geometry=true
// the same polygon; a hand-checked chain for Dover and Wilmington.
func TestAdminHierarchy(t *testing.T) {
	f := newBndFixture(t, true)
	tests := []struct {
		name, x, y string
		want       []string // names, admin0 first
	}{
		{"Dover", "-75.5244", "39.1582", []string{"United States of America", "Delaware", "Kent County", "Dover"}},
		{"Wilmington", "-75.5466", "39.7459", []string{"United States of America", "Delaware", "New Castle County", "Wilmington"}},
		{"Lewes", "-75.1393", "38.7746", nil},
		{"Newark", "-75.7497", "39.6837", nil},
		{"Paris (world layer)", "2.3522", "48.8566", []string{"France"}},
		{"open sea", "-74.0", "38.0", []string{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			// The oracle: xy2admininfo at every level, each area once.
			var want []json.RawMessage
			var wantGeom []json.RawMessage
			seen := map[string]bool{}
			for level := 0; level <= 8; level++ {
				code, body := f.get(t, fmt.Sprintf("/adminv1/xy2admininfo?x=%s&y=%s&type=admin%d", tc.x, tc.y, level))
				if code != http.StatusOK {
					t.Fatalf("admin%d: %d %s", level, code, body)
				}
				var a hierarchyAnswer
				if err := json.Unmarshal(body, &a); err != nil {
					t.Fatal(err)
				}
				for _, ft := range a.Features {
					if !seen[string(ft.Properties)] {
						seen[string(ft.Properties)] = true
						want = append(want, ft.Properties)
						wantGeom = append(wantGeom, ft.Geometry)
					}
				}
			}
			for _, geom := range []bool{false, true} {
				q := url.Values{"x": {tc.x}, "y": {tc.y}}
				if geom {
					q.Set("geometry", "true")
				}
				code, body := f.get(t, "/adminv1/xy2hierarchy?"+q.Encode())
				if code != http.StatusOK {
					t.Fatalf("%d %s", code, body)
				}
				var h hierarchyAnswer
				if err := json.Unmarshal(body, &h); err != nil {
					t.Fatalf("%v: %s", err, body)
				}
				if h.Type != "FeatureCollection" || h.TotalFeatures != len(h.Features) || len(h.Features) != len(want) {
					t.Fatalf("geometry %v: %d features (total %d), want %d: %s", geom, len(h.Features), h.TotalFeatures, len(want), body)
				}
				var names []string
				for i, ft := range h.Features {
					if !bytes.Equal(ft.Properties, want[i]) {
						t.Errorf("level %d: %s, xy2admininfo has %s", i, ft.Properties, want[i])
					}
					switch {
					case !geom && string(ft.Geometry) != "null":
						t.Errorf("geometry without geometry=true: %.80s", ft.Geometry)
					case geom && !bytes.Equal(ft.Geometry, wantGeom[i]):
						t.Errorf("level %d: geometry differs from xy2admininfo's", i)
					}
					var p struct{ Name string }
					if err := json.Unmarshal(ft.Properties, &p); err != nil {
						t.Fatal(err)
					}
					names = append(names, p.Name)
				}
				if tc.want != nil && strings.Join(names, "|") != strings.Join(tc.want, "|") {
					t.Errorf("names %q, want %q", names, tc.want)
				}
			}
		})
	}
}

func TestAdminHierarchyBadInput(t *testing.T) {
	f := newBndFixture(t, true)
	for _, tc := range []struct{ q, want string }{
		{"y=39.1", "x is required"},
		{"x=-75.5&y=91", "y (latitude) must be between -90 and 90"},
		{"x=-75.5&y=39.1&geometry=yes", `geometry must be true or false, got \"yes\"`},
		{"x=-75.5&y=39.1&geometry=", `geometry must be true or false, got \"\"`},
	} {
		code, body := f.get(t, "/adminv1/xy2hierarchy?"+tc.q)
		if code != http.StatusBadRequest || !strings.Contains(string(body), tc.want) {
			t.Errorf("%s: %d %s, want 400 %q", tc.q, code, body, tc.want)
		}
	}
	nf := newBndFixture(t, false)
	if code, body := nf.get(t, "/adminv1/xy2hierarchy?x=-75.5&y=39.1"); code != http.StatusServiceUnavailable {
		t.Errorf("no layer: %d %s", code, body)
	}
}
