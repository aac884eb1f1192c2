package api

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/geosvc/geosvc/bundle"
)

// TestInfoOSMTimestamp: /v1/info's osm_timestamp is the extract's date,
// and left out when the extract has none (it was 0001-01-01T00:00:00Z).
func TestInfoOSMTimestamp(t *testing.T) {
	ts := time.Date(2016, 8, 10, 19, 28, 3, 0, time.UTC) // the Delaware extract's header
	for _, c := range []struct {
		name string
		at   time.Time
		want string
	}{
		{"dated", ts, `"osm_timestamp":"2016-08-10T19:28:03Z"`},
		{"no date", time.Time{}, ""},
	} {
		js, err := json.Marshal(describe(&bundle.Bundle{Manifest: bundle.Manifest{OSMTimestamp: c.at}}))
		if err != nil {
			t.Fatal(err)
		}
		got := string(js)
		if c.want == "" && strings.Contains(got, "osm_timestamp") || !strings.Contains(got, c.want) {
			t.Errorf("%s: %s, want %q", c.name, got, c.want)
		}
	}
}
