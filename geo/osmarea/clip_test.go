package osmarea

import (
	"slices"
	"testing"

	"github.com/paulmach/orb"
	"github.com/paulmach/osm"
)

// square is a unit-ish square polygon at x0, y0.
func square(x0, y0 float64) orb.MultiPolygon {
	return orb.MultiPolygon{{{{x0, y0}, {x0 + 1, y0}, {x0 + 1, y0 + 1}, {x0, y0 + 1}, {x0, y0}}}}
}

func adminTags(level, name, iso string) osm.Tags {
	tags := osm.Tags{{Key: "boundary", Value: "administrative"}, {Key: "admin_level", Value: level}, {Key: "name", Value: name}}
	if iso != "" {
		key := "ISO3166-2"
		if level == "2" {
			key = "ISO3166-1"
		}
		tags = append(tags, osm.Tag{Key: key, Value: iso})
	}
	return tags
}

// TestClipSharedCountryCode: two broken relations of one country (a
// tiled extract copies the country relation, each copy naming its own
// state as a sub-area) take their own states only; a state no country
// relation names goes to the first relation by id; a city state cut at
// sea takes its municipality of the same name. (Before, every copy took
// every state of its code: copies x states areas, each point inside as
// many copies of the country as there are copies.)
func TestClipSharedCountryCode(t *testing.T) {
	res := &Result{
		Areas: []Area{
			{ID: 10, Tags: adminTags("4", "Delaware", "US-DE"), Polygons: square(0, 0)},
			{ID: 11, Tags: adminTags("4", "Delaware", "US-DE"), Polygons: square(10, 0)},
			{ID: 12, Tags: adminTags("4", "Maryland", "US-MD"), Polygons: square(0, 10)},
			{ID: 20, Tags: adminTags("8", "Monaco", ""), Polygons: square(50, 50)},
		},
		Broken: []Broken{
			{ID: 2, Tags: adminTags("2", "United States", "US"), Subareas: []int64{11}},
			{ID: 1, Tags: adminTags("2", "United States", "US"), Subareas: []int64{10}},
			{ID: 3, Tags: adminTags("2", "Monaco", "MC")},
			{ID: 4, Tags: adminTags("2", "Nowhere", "XX")},
		},
	}
	ids := ClipToSubareas(res)
	slices.Sort(ids)
	if !slices.Equal(ids, []int64{1, 2, 3}) {
		t.Fatalf("clipped %v, want [1 2 3]", ids)
	}
	for _, tc := range []struct {
		id      int64
		inside  []orb.Point
		outside []orb.Point
	}{
		{1, []orb.Point{{0.5, 0.5}, {0.5, 10.5}}, []orb.Point{{10.5, 0.5}}}, // its Delaware and the unnamed Maryland
		{2, []orb.Point{{10.5, 0.5}}, []orb.Point{{0.5, 0.5}, {0.5, 10.5}}}, // its Delaware only
		{3, []orb.Point{{50.5, 50.5}}, nil},
	} {
		var a *Area
		for i := range res.Areas {
			if res.Areas[i].ID == tc.id && res.Areas[i].Clipped {
				a = &res.Areas[i]
			}
		}
		if a == nil {
			t.Fatalf("r%d not clipped", tc.id)
		}
		for _, p := range tc.inside {
			if !a.Polygons.Bound().Contains(p) || !containsPoint(a.Polygons, p) {
				t.Errorf("r%d does not hold %v", tc.id, p)
			}
		}
		for _, p := range tc.outside {
			if containsPoint(a.Polygons, p) {
				t.Errorf("r%d holds %v", tc.id, p)
			}
		}
	}
}

func containsPoint(mp orb.MultiPolygon, p orb.Point) bool {
	for _, poly := range mp {
		r := poly[0]
		in := false
		for i, j := 0, len(r)-1; i < len(r); j, i = i, i+1 {
			if (r[i][1] > p[1]) != (r[j][1] > p[1]) && p[0] < (r[j][0]-r[i][0])*(p[1]-r[i][1])/(r[j][1]-r[i][1])+r[i][0] {
				in = !in
			}
		}
		if in {
			return true
		}
	}
	return false
}
