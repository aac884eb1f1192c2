package osmroad

import (
	"testing"

	"github.com/paulmach/osm"
)

func TestWayName(t *testing.T) {
	for _, tc := range []struct {
		tags osm.Tags
		want string
	}{
		{osm.Tags{{Key: "name", Value: "Delaware Turnpike"}, {Key: "ref", Value: "I 95"}}, "Delaware Turnpike"},
		{osm.Tags{{Key: "ref", Value: "I 95;US 202"}}, "I-95 / US-202"},
		{osm.Tags{{Key: "ref", Value: "CG-2"}}, "CG-2"},
		{osm.Tags{{Key: "ref", Value: "(221)"}}, "(221)"},
		{osm.Tags{{Key: "highway", Value: "service"}}, ""},
	} {
		if got := wayName(tc.tags); got != tc.want {
			t.Errorf("wayName(%v) = %q, want %q", tc.tags, got, tc.want)
		}
	}
}
