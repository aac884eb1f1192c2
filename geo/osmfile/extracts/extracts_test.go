package extracts

import (
	"errors"
	"strings"
	"testing"
)

func TestPath(t *testing.T) {
	cases := []struct {
		name, suffix string
	}{
		{"delaware", "testdata/delaware-latest.osm.pbf"},
		{"andorra", "testdata/andorra-latest.osm.bz2"},
		{"porto_portugal", "shared/data/osm/porto_portugal.osm.pbf"},
	}
	for _, tc := range cases {
		p := Require(t, tc.name)
		if !strings.HasSuffix(p, tc.suffix) {
			t.Errorf("%s: %s, want a path ending in %s", tc.name, p, tc.suffix)
		}
	}
	if _, err := Path("no_such_extract"); !errors.Is(err, ErrMissing) {
		t.Errorf("a missing extract: err %v, want ErrMissing", err)
	}
}
