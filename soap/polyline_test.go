package soap

import (
	"math"
	"math/rand"
	"testing"

	"github.com/paulmach/orb"
)

func TestPolylineKnown(t *testing.T) {
	// Google's documented example.
	want := "_p~iF~ps|U_ulLnnqC_mqNvxq`@"
	line := orb.LineString{{-120.2, 38.5}, {-120.95, 40.7}, {-126.453, 43.252}}
	if got := encodePolyline(line); got != want {
		t.Errorf("encode: %q, want %q", got, want)
	}
	pts, err := decodePolyline(want)
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range pts {
		if math.Abs(p[0]-line[i][0]) > 1e-9 || math.Abs(p[1]-line[i][1]) > 1e-9 {
			t.Errorf("point %d: %v, want %v", i, p, line[i])
		}
	}
}

func TestPolylineRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	for n := 0; n < 200; n++ {
		line := make(orb.LineString, 1+rng.Intn(30))
		for i := range line {
			line[i] = orb.Point{math.Round((rng.Float64()*360-180)*1e5) / 1e5, math.Round((rng.Float64()*180-90)*1e5) / 1e5}
		}
		got, err := decodePolyline(encodePolyline(line))
		if err != nil || len(got) != len(line) {
			t.Fatalf("round trip of %v: %v %v", line, got, err)
		}
		for i := range line {
			if math.Abs(got[i][0]-line[i][0]) > 1e-9 || math.Abs(got[i][1]-line[i][1]) > 1e-9 {
				t.Fatalf("point %d: %v, want %v", i, got[i], line[i])
			}
		}
	}
}

func TestPolylineBad(t *testing.T) {
	for _, s := range []string{"_p~iF~ps|U_", "_p~iF", "abc def", "\x01", "~~~~~~~~~~~~~~~~~~~~~~~~"} {
		if pts, err := decodePolyline(s); err == nil {
			t.Errorf("%q decoded to %v", s, pts)
		}
	}
}

func FuzzPolyline(f *testing.F) {
	f.Add("_p~iF~ps|U_ulLnnqC_mqNvxq`@")
	f.Add("")
	f.Fuzz(func(t *testing.T, s string) {
		pts, err := decodePolyline(s)
		if err != nil {
			return
		}
		again, err := decodePolyline(encodePolyline(pts))
		if err != nil || len(again) != len(pts) {
			t.Fatalf("%q: %v re-decoded to %v (%v)", s, pts, again, err)
		}
		for i := range pts {
			if math.Abs(again[i][0]-pts[i][0]) > 1e-9 || math.Abs(again[i][1]-pts[i][1]) > 1e-9 {
				t.Fatalf("%q: point %d %v became %v", s, i, pts[i], again[i])
			}
		}
	})
}
