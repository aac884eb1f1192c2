package area

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/paulmach/orb"
)

// square returns a closed square ring around (lon, lat), half-side d
// degrees, counter-clockwise, as GeoJSON positions.
func square(lon, lat, d float64) string {
	return fmt.Sprintf("[[%g,%g],[%g,%g],[%g,%g],[%g,%g],[%g,%g]]",
		lon-d, lat-d, lon+d, lat-d, lon+d, lat+d, lon-d, lat+d, lon-d, lat-d)
}

// TestParseGeoJSONErrors: every kind of bad input is an *Error naming
// the member, ring and position.
func TestParseGeoJSONErrors(t *testing.T) {
	many := make([]string, 0, MaxPositions+1)
	for i := 0; i < MaxPositions; i++ {
		many = append(many, fmt.Sprintf("[%g,%g]", -75.5+float64(i)*1e-5, 39.5+float64(i%2)*1e-3))
	}
	many = append(many, many[0])
	cases := []struct {
		name, in, path, msg string
	}{
		{"not an object", `[1,2]`, "", "must be a GeoJSON Polygon or MultiPolygon object"},
		{"malformed", `{"type":`, "", "must be a GeoJSON"},
		{"no type", `{"coordinates":[]}`, "type", "is required"},
		{"type not a string", `{"type":3,"coordinates":[]}`, "type", "must be the string"},
		{"wrong type", `{"type":"LineString","coordinates":[[0,0],[1,1]]}`, "type", `is "LineString"`},
		{"feature", `{"type":"Feature","geometry":{"type":"Polygon","coordinates":[]}}`, "type", "not a Feature"},
		{"lower case", `{"type":"polygon","coordinates":[]}`, "type", "case-sensitive"},
		{"no coordinates", `{"type":"Polygon"}`, "coordinates", "is required"},
		{"coordinates not array", `{"type":"Polygon","coordinates":"x"}`, "coordinates", "must be an array of rings"},
		{"no ring", `{"type":"Polygon","coordinates":[]}`, "coordinates", "needs an outer ring"},
		{"empty multi", `{"type":"MultiPolygon","coordinates":[]}`, "coordinates", "at least one polygon"},
		{"ring not array", `{"type":"Polygon","coordinates":[5]}`, "coordinates[0]", "must be an array of [lon, lat]"},
		{"three positions", `{"type":"Polygon","coordinates":[[[0,0],[1,0],[0,0]]]}`, "coordinates[0]", "has 3 positions: a ring needs at least 4"},
		{"unclosed", `{"type":"Polygon","coordinates":[[[0,0],[0.1,0],[0.1,0.1],[0,0.1]]]}`, "coordinates[0]", "is not closed"},
		{"position not pair", `{"type":"Polygon","coordinates":[[[0,0],[0.1],[0.1,0.1],[0,0]]]}`, "coordinates[0][1]", "must be a position"},
		{"position strings", `{"type":"Polygon","coordinates":[[[0,0],["1","2"],[0.1,0.1],[0,0]]]}`, "coordinates[0][1]", "must be a position"},
		{"longitude range", `{"type":"Polygon","coordinates":[[[0,0],[181,0],[0.1,0.1],[0,0]]]}`, "coordinates[0][1]", "longitude 181 is out of range"},
		{"latitude range", `{"type":"Polygon","coordinates":[[[0,0],[0.1,0],[39.7,-95.5],[0,0]]]}`, "coordinates[0][2]", "latitude -95.5 is out of range [-90, 90] (a position is [lon, lat]"},
		{"collinear", `{"type":"Polygon","coordinates":[[[0,0],[0.1,0],[0.2,0],[0,0]]]}`, "coordinates[0][0]", "its side from position 0 meets its side from position 2"},
		{"two corners", `{"type":"Polygon","coordinates":[[[0,0],[0.1,0],[0.1,0],[0,0]]]}`, "coordinates[0]", "has 2 distinct corners"},
		{"bow tie", `{"type":"Polygon","coordinates":[[[0,0],[0.1,0.1],[0.1,0],[0,0.1],[0,0]]]}`, "coordinates[0][0]", "crosses or touches itself: its side from position 0 meets its side from position 2"},
		{"spike back", `{"type":"Polygon","coordinates":[[[0,0],[0.2,0],[0.1,0],[0.1,0.1],[0,0]]]}`, "coordinates[0][0]", "crosses or touches itself"},
		{"figure eight touch", `{"type":"Polygon","coordinates":[[[0,0],[0.1,0],[0.05,0.05],[0.1,0.1],[0,0.1],[0.05,0.05],[0,0]]]}`, "coordinates[0][1]", "its side from position 1 meets its side from position 4"},
		{"hole crosses outer", `{"type":"Polygon","coordinates":[` + square(0, 0, 0.1) + `,` + square(0.1, 0, 0.05) + `]}`, "coordinates[0][1]", "crosses or touches ring coordinates[1]"},
		{"hole outside", `{"type":"Polygon","coordinates":[` + square(0, 0, 0.1) + `,` + square(0.5, 0, 0.05) + `]}`, "coordinates[1]", "outside its polygon's outer ring"},
		{"hole in hole", `{"type":"Polygon","coordinates":[` + square(0, 0, 0.1) + `,` + square(0, 0, 0.05) + `,` + square(0, 0, 0.02) + `]}`, "coordinates[2]", "overlapping the hole coordinates[1]"},
		{"multi path", `{"type":"MultiPolygon","coordinates":[[` + square(0, 0, 0.1) + `],[[[0,0],[1,1],[0,0]]]]}`, "coordinates[1][0]", "has 3 positions"},
		{"multi position path", `{"type":"MultiPolygon","coordinates":[[` + square(0, 0, 0.1) + `],[[[0,0],[0.1,0],[0.1,"x"],[0,0]]]]}`, "coordinates[1][0][2]", "must be a position"},
		{"too many positions", `{"type":"Polygon","coordinates":[[` + strings.Join(many, ",") + `]]}`, "coordinates", "more than 2000 positions"},
		{"too wide", `{"type":"Polygon","coordinates":[` + square(-75, 39, 1.5) + `]}`, "coordinates", "spans 259 km east-west and 334 km north-south"},
		{"too much area", `{"type":"MultiPolygon","coordinates":[[` + square(-75, 39, 0.4) + `],[` + square(-73, 39, 0.4) + `],[` + square(-71, 39, 0.4) + `]]}`, "coordinates", "km² in all: the limit is 10000 km²"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParseGeoJSON([]byte(c.in))
			var ae *Error
			if !errors.As(err, &ae) {
				t.Fatalf("got %v, want an *Error", err)
			}
			if ae.Path != c.path || !strings.Contains(ae.Msg, c.msg) {
				t.Fatalf("got %q: %q, want %q: ...%q...", ae.Path, ae.Msg, c.path, c.msg)
			}
		})
	}
}

// TestCanonical: the same polygons given clockwise, from another vertex,
// with an altitude, a repeated position, in another order or twice have
// one key, and the key decodes to the same set.
func TestCanonical(t *testing.T) {
	a := `{"type":"Polygon","coordinates":[[[-75.6,39.6],[-75.5,39.6],[-75.5,39.7],[-75.6,39.7],[-75.6,39.6]],[[-75.58,39.62],[-75.58,39.68],[-75.52,39.68],[-75.52,39.62],[-75.58,39.62]]]}`
	same := []string{
		// clockwise outer ring, counter-clockwise hole, other start
		`{"type":"Polygon","coordinates":[[[-75.5,39.6],[-75.6,39.6],[-75.6,39.7],[-75.5,39.7],[-75.5,39.6]],[[-75.52,39.68],[-75.58,39.68],[-75.58,39.62],[-75.52,39.62],[-75.52,39.68]]]}`,
		// altitude, repeated position, a hair beyond 7 decimals, bbox member
		`{"type":"Polygon","bbox":[0,0,1,1],"coordinates":[[[-75.6,39.6,10],[-75.5,39.6],[-75.5,39.6],[-75.50000001,39.7],[-75.6,39.7],[-75.6,39.6]],[[-75.58,39.62],[-75.58,39.68],[-75.52,39.68],[-75.52,39.62],[-75.58,39.62]]]}`,
		// as a MultiPolygon, twice
		`{"type":"MultiPolygon","coordinates":[[[[-75.6,39.6],[-75.5,39.6],[-75.5,39.7],[-75.6,39.7],[-75.6,39.6]],[[-75.58,39.62],[-75.58,39.68],[-75.52,39.68],[-75.52,39.62],[-75.58,39.62]]],[[[-75.6,39.6],[-75.5,39.6],[-75.5,39.7],[-75.6,39.7],[-75.6,39.6]],[[-75.58,39.62],[-75.58,39.68],[-75.52,39.68],[-75.52,39.62],[-75.58,39.62]]]]}`,
	}
	want, err := ParseGeoJSON([]byte(a))
	if err != nil {
		t.Fatal(err)
	}
	if want.Len() != 1 || want.Positions() != 10 {
		t.Fatalf("%v", want)
	}
	for i, s := range same {
		got, err := ParseGeoJSON([]byte(s))
		if err != nil {
			t.Fatalf("%d: %v", i, err)
		}
		if got.Key() != want.Key() || got.Hash() != want.Hash() {
			t.Fatalf("%d: key %s, want %s", i, got.Key(), want.Key())
		}
	}
	back, err := Decode(want.Key())
	if err != nil || back.Key() != want.Key() {
		t.Fatalf("decode: %v %v", back, err)
	}
	mp := back.MultiPolygon()
	if o := mp[0][0]; o.Orientation() != orb.CCW || mp[0][1].Orientation() != orb.CW || o[0] != (orb.Point{-75.6, 39.6}) {
		t.Fatalf("not canonical: %v", mp)
	}
	for _, bad := range []string{"", "x", "AQ", "!!!", want.Key() + "AA", want.Key()[:len(want.Key())-2]} {
		if _, err := Decode(bad); err == nil {
			t.Errorf("Decode(%q) accepted", bad)
		}
	}
}

// TestCrosses: a segment crosses a polygon with a hole when it has a
// point in it, its boundary included, and not when it stays in the hole
// or outside.
func TestCrosses(t *testing.T) {
	s, err := ParseGeoJSON([]byte(`{"type":"Polygon","coordinates":[` + square(0, 0, 0.1) + `,` + square(0, 0, 0.05) + `]}`))
	if err != nil {
		t.Fatal(err)
	}
	sh := s.Shapes()[0]
	cases := []struct {
		a, b orb.Point
		want bool
	}{
		{orb.Point{-0.2, 0}, orb.Point{-0.15, 0}, false},      // outside
		{orb.Point{-0.2, 0}, orb.Point{-0.08, 0}, true},       // crosses into the ring band
		{orb.Point{-0.2, -0.2}, orb.Point{0.2, 0.2}, true},    // through everything, no end inside
		{orb.Point{-0.01, 0}, orb.Point{0.01, 0.02}, false},   // inside the hole
		{orb.Point{-0.01, 0}, orb.Point{0.07, 0}, true},       // from the hole into the band
		{orb.Point{-0.2, 0.1}, orb.Point{0.2, 0.1}, true},     // along the outer boundary
		{orb.Point{-0.04, 0.05}, orb.Point{0.04, 0.05}, true}, // on the hole's boundary
		{orb.Point{0.07, 0.07}, orb.Point{0.07, 0.07}, true},  // a point in the band
		{orb.Point{-0.2, 0.11}, orb.Point{0.2, 0.2}, false},   // above
	}
	for i, c := range cases {
		if got := sh.Crosses(c.a, c.b); got != c.want {
			t.Errorf("%d: Crosses(%v, %v) = %v, want %v", i, c.a, c.b, got, c.want)
		}
	}
}

// FuzzParseGeoJSON: any input either fails with an *Error or gives a set
// whose key decodes to the same set, whose GeoJSON parses to the same
// key, and whose limits hold.
func FuzzParseGeoJSON(f *testing.F) {
	f.Add(`{"type":"Polygon","coordinates":[` + square(-75.5, 39.6, 0.05) + `]}`)
	f.Add(`{"type":"Polygon","coordinates":[` + square(0, 0, 0.1) + `,` + square(0, 0, 0.05) + `]}`)
	f.Add(`{"type":"MultiPolygon","coordinates":[[` + square(0, 0, 0.1) + `],[` + square(1, 1, 0.1) + `]]}`)
	f.Add(`{"type":"Polygon","coordinates":[[[0,0],[0.1,0.1],[0.1,0],[0,0.1],[0,0]]]}`)
	f.Add(`{"type":"Polygon","coordinates":[[[0,0],[1e-7,0],[0,1e-7],[0,0]]]}`)
	f.Fuzz(func(t *testing.T, in string) {
		s, err := ParseGeoJSON([]byte(in))
		if err != nil {
			var ae *Error
			if !errors.As(err, &ae) {
				t.Fatalf("error %v is not an *Error", err)
			}
			return
		}
		if s.Positions() > MaxPositions || s.Len() == 0 {
			t.Fatalf("%v", s)
		}
		back, err := Decode(s.Key())
		if err != nil || back.Key() != s.Key() {
			t.Fatalf("key %q: %v %v", s.Key(), back, err)
		}
		var b strings.Builder
		b.WriteString(`{"type":"MultiPolygon","coordinates":[`)
		for i, p := range s.MultiPolygon() {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteByte('[')
			for j, r := range p {
				if j > 0 {
					b.WriteByte(',')
				}
				b.WriteByte('[')
				for k, v := range r {
					if k > 0 {
						b.WriteByte(',')
					}
					fmt.Fprintf(&b, "[%.7f,%.7f]", v[0], v[1])
				}
				b.WriteByte(']')
			}
			b.WriteByte(']')
		}
		b.WriteString("]}")
		again, err := ParseGeoJSON([]byte(b.String()))
		if err != nil || again.Key() != s.Key() {
			t.Fatalf("%s: %v (key %q, want %q)", b.String(), err, again.Key(), s.Key())
		}
	})
}

// FuzzDecode: any key either fails or decodes to a canonical set.
func FuzzDecode(f *testing.F) {
	s, _ := ParseGeoJSON([]byte(`{"type":"Polygon","coordinates":[` + square(0, 0, 0.1) + `,` + square(0, 0, 0.05) + `]}`))
	f.Add(s.Key())
	f.Add("AQEBBA")
	f.Fuzz(func(t *testing.T, key string) {
		s, err := Decode(key)
		if err != nil {
			return
		}
		if again, err := Decode(s.Key()); err != nil || again.Key() != s.Key() {
			t.Fatalf("%q: not canonical: %v", key, err)
		}
	})
}
