package queue

import (
	"testing"
	"time"

	"github.com/paulmach/orb"
)

// TestSpecProfile: a job record without a profile field (every record
// written before profiles, and every car order) reads as the car's; one
// with it reads its profile.
func TestSpecProfile(t *testing.T) {
	pts := string(encodePoints([]orb.Point{{-75.55, 39.74}, {-75.54, 39.73}}))
	for _, tc := range []struct {
		name    string
		profile any
		want    string
	}{
		{"old record, no field", nil, ""},
		{"bicycle", "bicycle", "bicycle"},
		{"foot", "foot", "foot"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := []any{"fastest", "3", "1", "100", pts, pts, "abc123", nil, tc.profile}
			spec, err := parseSpec("00000000-0000-0000-0000-000000000000", v)
			if err != nil {
				t.Fatal(err)
			}
			if spec.Profile != tc.want || spec.Routing != "fastest" || len(spec.Origins) != 2 {
				t.Errorf("spec %+v, want profile %q", spec, tc.want)
			}
		})
	}
	// newRecord writes the field only for another profile than the car's.
	q := &Queue{cfg: Config{ChunkRows: 100, Retention: time.Hour}}
	for _, tc := range []struct {
		profile string
		field   bool
	}{{"", false}, {"car", false}, {"bicycle", true}, {"foot", true}} {
		o := Order{Owner: "k", Routing: "fastest", Origins: []string{"a"}, Destinations: []string{"b"},
			OriginPoints: []orb.Point{{1, 2}}, DestinationPoints: []orb.Point{{1, 2}}, Profile: tc.profile}
		_, fields, err := q.newRecord(o, time.Unix(1_800_000_000, 0))
		if err != nil {
			t.Fatal(err)
		}
		if got, ok := fields["profile"]; ok != tc.field || ok && got != tc.profile {
			t.Errorf("profile %q: record field %v (%v), want present %v", tc.profile, got, ok, tc.field)
		}
	}
}
