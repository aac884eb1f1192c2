package timezone

import (
	"archive/zip"
	"io"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/paulmach/orb"
)

var (
	instFinderOnce sync.Once
	instFinder     *Finder
	instFinderErr  error
)

// instantIndex is an Index without areas, on a shared Finder.
func instantIndex(t *testing.T) *Index {
	t.Helper()
	instFinderOnce.Do(func() { instFinder, instFinderErr = NewFinder() })
	if instFinderErr != nil {
		t.Fatal(instFinderErr)
	}
	ix, err := NewIndex(Options{Finder: instFinder, Clock: func() time.Time { return fixedNow }})
	if err != nil {
		t.Fatal(err)
	}
	return ix
}

// TestLookupAtHandChecked: instants around rule changes, offsets checked
// by hand against the tz database's source (northamerica, europe,
// australasia) and the news of the changes.
func TestLookupAtHandChecked(t *testing.T) {
	ix := instantIndex(t)
	apia := orb.Point{-171.7514, -13.8333}
	moscow := orb.Point{37.6173, 55.7558}
	tests := []struct {
		what     string
		p        orb.Point
		at       string
		zone     string
		raw, dst int
		abbr     string
		dstStart string // the Zone's DST start in that year, "" for none
	}{
		// Samoa: UTC-11 with DST (-10) until Thursday 29 December 2011,
		// then UTC+13 with DST (+14) from Saturday 31 December: the 30th
		// was skipped. DST ended for good in April 2021.
		{"Samoa before the date-line move", apia, "2011-12-29T12:00:00Z", "Pacific/Apia", -11 * 3600, 3600, "-10", "2011-09-24T14:00:00Z"},
		{"Samoa after the date-line move", apia, "2011-12-31T00:00:00Z", "Pacific/Apia", 13 * 3600, 3600, "+14", "2011-09-24T14:00:00Z"},
		{"Samoa winter 2011", apia, "2011-06-15T00:00:00Z", "Pacific/Apia", -11 * 3600, 0, "-11", "2011-09-24T14:00:00Z"},
		{"Samoa 2026, no DST", apia, "2026-01-15T00:00:00Z", "Pacific/Apia", 13 * 3600, 0, "+13", ""},
		// Russia: permanent UTC+4 from 27 March 2011 (no DST), back to
		// UTC+3 on 26 October 2014.
		{"Moscow summer 2010, DST", moscow, "2010-07-15T00:00:00Z", "Europe/Moscow", 3 * 3600, 3600, "MSD", "2010-03-27T23:00:00Z"},
		{"Moscow 2013, permanent +4", moscow, "2013-01-15T00:00:00Z", "Europe/Moscow", 4 * 3600, 0, "MSK", ""},
		{"Moscow summer 2013", moscow, "2013-07-15T00:00:00Z", "Europe/Moscow", 4 * 3600, 0, "MSK", ""},
		{"Moscow 2015, +3", moscow, "2015-01-15T00:00:00Z", "Europe/Moscow", 3 * 3600, 0, "MSK", ""},
		{"Moscow 2015 as Unix seconds' instant", moscow, "2015-07-15T00:00:00Z", "Europe/Moscow", 3 * 3600, 0, "MSK", ""},
		// Dublin: the tz database's negative DST in winter, read as GMT
		// standard and IST summer time.
		{"Dublin winter", orb.Point{-6.2603, 53.3498}, "2026-01-15T00:00:00Z", "Europe/Dublin", 0, 0, "GMT", "2026-03-29T01:00:00Z"},
		{"Dublin summer", orb.Point{-6.2603, 53.3498}, "2026-07-15T00:00:00Z", "Europe/Dublin", 0, 3600, "IST", "2026-03-29T01:00:00Z"},
		{"Dover, DE, summer 1990", orb.Point{-75.5244, 39.1582}, "1990-07-04T16:00:00Z", "America/New_York", -5 * 3600, 3600, "EDT", "1990-04-01T07:00:00Z"},
		// Lord Howe's half-hour DST.
		{"Lord Howe summer", orb.Point{159.0833, -31.5500}, "2026-01-15T00:00:00Z", "Australia/Lord_Howe", 37800, 1800, "+11", "2026-10-03T15:30:00Z"},
	}
	for _, tt := range tests {
		t.Run(tt.what, func(t *testing.T) {
			r, err := ix.LookupAt(tt.p, mustTime(t, tt.at))
			if err != nil {
				t.Fatal(err)
			}
			in := r.At
			if in == nil {
				t.Fatal("no instant in the result")
			}
			if in.ZoneID != tt.zone || in.RawOffset != tt.raw || in.DSTOffset != tt.dst || in.Abbreviation != tt.abbr {
				t.Errorf("got %s raw %d dst %d %q, want %s raw %d dst %d %q", in.ZoneID, in.RawOffset, in.DSTOffset, in.Abbreviation,
					tt.zone, tt.raw, tt.dst, tt.abbr)
			}
			if !in.Time.Equal(mustTime(t, tt.at)) {
				t.Errorf("instant %v, want %s", in.Time, tt.at)
			}
			if got := r.Zone.DSTStart; !got.Equal(mustTime(t, tt.dstStart)) {
				t.Errorf("zone year %d: DST start %v, want %q", r.Zone.Year, got, tt.dstStart)
			}
		})
	}
}

// goLocations loads zones with Go's time package from the same
// zoneinfo.zip, read here with archive/zip (not through LoadLocation).
type goLocations struct {
	files map[string]*zip.File
	locs  map[string]*time.Location
}

func newGoLocations(t *testing.T) *goLocations {
	t.Helper()
	zr, err := zip.OpenReader("zoneinfo.zip")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { zr.Close() })
	g := &goLocations{files: map[string]*zip.File{}, locs: map[string]*time.Location{}}
	for _, f := range zr.File {
		g.files[f.Name] = f
	}
	return g
}

func (g *goLocations) load(t *testing.T, name string) *time.Location {
	t.Helper()
	if l, ok := g.locs[name]; ok {
		return l
	}
	f, ok := g.files[name]
	if !ok {
		t.Fatalf("zone %s not in zoneinfo.zip", name)
	}
	rc, err := f.Open()
	if err != nil {
		t.Fatal(err)
	}
	data, err := io.ReadAll(rc)
	rc.Close()
	if err != nil {
		t.Fatal(err)
	}
	l, err := time.LoadLocationFromTZData(name, data)
	if err != nil {
		t.Fatal(err)
	}
	g.locs[name] = l
	return l
}

// negativeDST are the zones whose tz data flag a lower offset as DST at
// some time since 1980 (europe: Dublin; africa: Casablanca, El Aaiun,
// Windhoek 1994-2017): only there may the split differ from Go's flag.
var negativeDST = map[string]bool{"Europe/Dublin": true, "Africa/Casablanca": true, "Africa/El_Aaiun": true, "Africa/Windhoek": true}

// noLowerStandard reports the periods the tz database flags DST although
// no lower offset was standard time before or after them, so that their
// split reads dst 0 (europe: Samara's +4 of 1991 on a +3 standard that
// never was; southamerica: Argentina's -3 DST of 1999-2000 on a -4
// standard that was cancelled).
func noLowerStandard(zone string, at time.Time) bool {
	y := at.Year()
	return zone == "Europe/Samara" && y == 1991 ||
		strings.HasPrefix(zone, "America/Argentina/") && (y == 1999 || y == 2000)
}

// TestLookupAtMatchesGo: for 10,000 random (point, instant) pairs from
// 1980 to 2037, raw + DST offset is Go's offset for that zone and instant,
// the abbreviation is Go's, DST is never negative, and the split follows
// Go's DST flag outside the negative-DST zones.
func TestLookupAtMatchesGo(t *testing.T) {
	ix := instantIndex(t)
	gl := newGoLocations(t)
	rng := rand.New(rand.NewPCG(26, 4))
	// Half the points near places with DST history, half anywhere.
	places := []orb.Point{{-75.52, 39.16}, {-0.13, 51.51}, {-6.26, 53.35}, {37.62, 55.76}, {-171.75, -13.83}, {151.21, -33.87},
		{-7.59, 33.57}, {17.08, -22.56}, {28.98, 41.01}, {-58.38, -34.60}, {-46.63, -23.55}, {139.69, 35.69}, {77.21, 28.61},
		{-99.13, 19.43}, {-87.63, 41.88}, {-118.24, 34.05}, {-149.90, 61.22}, {174.78, -41.29}, {-176.55, -43.95},
		{2.35, 48.86}, {13.40, 52.52}, {30.52, 50.45}, {35.21, 31.77}, {51.39, 35.69}, {-70.65, -33.45}, {-109.35, -27.12},
		{1.52, 42.51}, {159.08, -31.55}, {115.86, -31.95}, {-79.38, 43.65}, {-60.02, -3.12}, {44.51, 40.18}, {69.24, 41.30}}
	lo := time.Date(1980, 1, 1, 0, 0, 0, 0, time.UTC).Unix()
	hi := time.Date(2038, 1, 1, 0, 0, 0, 0, time.UTC).Unix()
	zones := map[string]bool{}
	flagged := 0
	for i := range 10000 {
		var p orb.Point
		if i%2 == 0 {
			c := places[rng.IntN(len(places))]
			p = orb.Point{c[0] + rng.Float64() - 0.5, c[1] + rng.Float64() - 0.5}
		} else {
			p = orb.Point{rng.Float64()*360 - 180, rng.Float64()*170 - 85}
		}
		at := time.Unix(lo+rng.Int64N(hi-lo), 0).UTC()
		r, err := ix.LookupAt(p, at)
		if err != nil {
			t.Fatalf("%v at %v: %v", p, at, err)
		}
		in := r.At
		loc := gl.load(t, in.ZoneID)
		abbr, off := at.In(loc).Zone()
		isDST := at.In(loc).IsDST()
		zones[in.ZoneID] = true
		if isDST {
			flagged++
		}
		switch {
		case in.RawOffset+in.DSTOffset != off:
			t.Errorf("%v %s at %v: raw %d + dst %d, Go's offset %d", p, in.ZoneID, at, in.RawOffset, in.DSTOffset, off)
		case in.Abbreviation != abbr:
			t.Errorf("%v %s at %v: abbreviation %q, Go's %q", p, in.ZoneID, at, in.Abbreviation, abbr)
		case in.DSTOffset < 0:
			t.Errorf("%v %s at %v: negative DST %d", p, in.ZoneID, at, in.DSTOffset)
		case !negativeDST[in.ZoneID] && !noLowerStandard(in.ZoneID, at) && (in.DSTOffset > 0) != isDST:
			t.Errorf("%v %s at %v: dst %d but Go's DST flag %v", p, in.ZoneID, at, in.DSTOffset, isDST)
		case r.Zone.Year != at.In(loc).Year():
			t.Errorf("%v %s at %v: zone data of %d", p, in.ZoneID, at, r.Zone.Year)
		}
	}
	t.Logf("%d zones, %d instants in DST", len(zones), flagged)
	if len(zones) < 60 || flagged < 500 {
		t.Errorf("the sample is too narrow: %d zones, %d in DST", len(zones), flagged)
	}
}
