package api

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/geosvc/geosvc/bundle"
	"github.com/geosvc/geosvc/geo/osmfile/extracts"
)

// TestXY2TZDataLang: local_boundary_name in the request's language, from
// the boundary layer's area of that id. The fixture's area 162110 is
// Delaware's state relation, which has name:ru=Делавэр in the Delaware
// extract and no name:de; Georgetown (-75.385, 38.69) lies in it and
// outside the fixture's Kent County and Dover.
func TestXY2TZDataLang(t *testing.T) {
	f := newTZFixture(t)
	bl, err := bndDelaware()
	extracts.Need(t, err)
	f.cur.Store(&bundle.Bundle{TimeZones: f.ix, Boundaries: bl})
	// The zone's standard name: CLDR 41's America_Eastern in main/ru.xml
	// and main/de.xml (read by hand), English for a language CLDR lacks.
	for _, tc := range []struct{ q, want, zone string }{
		{"", "Delaware", "Eastern Standard Time"},
		{"&lang=ru", "Делавэр", "Восточная Америка, стандартное время"},
		{"&lang=de", "Delaware", "Nordamerikanische Ostküsten-Normalzeit"},
		{"&lang=xx", "Delaware", "Eastern Standard Time"},
		{"&lang=", "Delaware", "Eastern Standard Time"}, // as if absent
	} {
		code, _, body := f.get(t, "x=-75.385&y=38.69"+tc.q)
		var a tzAnswer
		if err := json.Unmarshal(body, &a); err != nil || code != 200 {
			t.Fatalf("%s: %d %v %s", tc.q, code, err, body)
		}
		if a.LocalArea.Name == nil || *a.LocalArea.Name != tc.want || a.LocalArea.LocalName != tc.zone {
			t.Errorf("%s: local_boundary_name %v, zone name %q; want %q and %q", tc.q, a.LocalArea.Name, a.LocalArea.LocalName, tc.want, tc.zone)
		}
	}
	if code, _, body := f.get(t, "x=-75.385&y=38.69&lang=1"); code != 400 || !strings.Contains(string(body), "lang must be BCP 47") {
		t.Errorf("lang=1: %d %s", code, body)
	}
}
