package timezone

import (
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/paulmach/orb"
)

var (
	finderOnce sync.Once
	finder     *Finder
	finderErr  error
)

// testFinder loads tzf's data once for the package's tests.
func testFinder(t testing.TB) *Finder {
	t.Helper()
	finderOnce.Do(func() { finder, finderErr = NewFinder() })
	if finderErr != nil {
		t.Fatal(finderErr)
	}
	return finder
}

// boxAreas is an Areas of axis-aligned boxes; the last box containing a
// point is the most specific.
type boxAreas []boxArea

type boxArea struct {
	Area
	box orb.Bound
}

func (b boxAreas) MostSpecific(p orb.Point) (Area, bool) {
	for i := len(b) - 1; i >= 0; i-- {
		if b[i].box.Contains(p) {
			return b[i].Area, true
		}
	}
	return Area{}, false
}

func (b boxAreas) All() []Area {
	out := make([]Area, len(b))
	for i, a := range b {
		out[i] = a.Area
	}
	return out
}

func box(id int64, name, iso3 string, level int, minLon, minLat, maxLon, maxLat float64) boxArea {
	bd := orb.Bound{Min: orb.Point{minLon, minLat}, Max: orb.Point{maxLon, maxLat}}
	return boxArea{Area{ID: id, Name: name, CountryISO3: iso3, Level: level, Point: bd.Center()}, bd}
}

// testAreas: Delaware with Kent County and Dover, Andorra with its
// capital's parish.
var testAreas = boxAreas{
	box(162110, "Delaware", "USA", 4, -75.79, 38.45, -75.05, 39.84),
	box(167120, "Kent County", "USA", 6, -75.76, 38.80, -75.30, 39.38),
	box(134836, "Dover", "USA", 8, -75.58, 39.11, -75.47, 39.20),
	box(9407, "Andorra", "AND", 2, 1.41, 42.43, 1.79, 42.66),
	box(2804758, "Andorra la Vella", "AND", 7, 1.49, 42.49, 1.55, 42.53),
}

func TestIndexLookup(t *testing.T) {
	ix, err := NewIndex(Options{Finder: testFinder(t), Areas: testAreas, Clock: func() time.Time { return fixedNow }})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		p       orb.Point
		zone    string
		inArea  bool
		areaID  int64
		country string
		names   []string
	}{
		{"Dover DE", orb.Point{-75.5244, 39.1582}, "America/New_York", true, 134836, "USA", []string{"Delaware", "Kent County", "Dover"}},
		{"Andorra la Vella", orb.Point{1.5218, 42.5063}, "Europe/Andorra", true, 2804758, "AND", []string{"Andorra", "Andorra la Vella"}},
		{"Tokyo", orb.Point{139.6917, 35.6895}, "Asia/Tokyo", false, 0, "JPN", []string{}},
		{"mid-Atlantic", orb.Point{-40, 30}, "Etc/GMT+3", false, 0, "", []string{}},
		{"Lord Howe Island", orb.Point{159.0829, -31.5553}, "Australia/Lord_Howe", false, 0, "AUS", []string{}},
		{"Chatham Islands", orb.Point{-176.5597, -43.9535}, "Pacific/Chatham", false, 0, "NZL", []string{}},
		{"Sydney", orb.Point{151.2093, -33.8688}, "Australia/Sydney", false, 0, "AUS", []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := ix.Lookup(tt.p)
			if err != nil {
				t.Fatal(err)
			}
			if r.Zone.Name != tt.zone || r.Zone.Year != 2026 {
				t.Errorf("zone %s %d, want %s 2026", r.Zone.Name, r.Zone.Year, tt.zone)
			}
			if r.InArea != tt.inArea || r.Area.ID != tt.areaID {
				t.Errorf("area %v %d, want %v %d", r.InArea, r.Area.ID, tt.inArea, tt.areaID)
			}
			if got := r.CountryISO3(); got != tt.country {
				t.Errorf("country %q, want %q", got, tt.country)
			}
			if !reflect.DeepEqual(r.BoundaryNames, tt.names) {
				t.Errorf("boundary names %q, want %q", r.BoundaryNames, tt.names)
			}
		})
	}
}

// TestIndexClock: the index computes at its clock's time, not the wall
// clock's.
func TestIndexClock(t *testing.T) {
	now := time.Date(2031, time.January, 10, 0, 0, 0, 0, time.UTC)
	ix, err := NewIndex(Options{Finder: testFinder(t), Clock: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	r, err := ix.Lookup(orb.Point{-75.5244, 39.1582})
	if err != nil {
		t.Fatal(err)
	}
	if want := time.Date(2031, time.March, 9, 7, 0, 0, 0, time.UTC); r.Zone.Year != 2031 || !r.Zone.DSTStart.Equal(want) {
		t.Errorf("year %d DST start %v, want 2031 %v", r.Zone.Year, r.Zone.DSTStart, want)
	}
	if !ix.Now().Equal(now) {
		t.Errorf("Now = %v", ix.Now())
	}
}

// TestEveryFinderZone: every zone tzf can answer loads from the embedded
// tz database and gets an abbreviation and a name.
func TestEveryFinderZone(t *testing.T) {
	f := testFinder(t)
	zones := f.Zones()
	if len(zones) < 300 {
		t.Fatalf("tzf knows %d zones", len(zones))
	}
	var noCountry []string
	for _, name := range zones {
		z, err := ComputeZone(name, fixedNow)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if z.Standard.Abbreviation == "" || z.Standard.Name == "" {
			t.Errorf("%s: standard naming %+v", name, z.Standard)
		}
		if z.HasDST && (z.DST.Abbreviation == "" || z.DST.Name == "" || z.DSTStart.IsZero() && z.DSTEnd.IsZero()) {
			t.Errorf("%s: DST %+v %v %v", name, z.DST, z.DSTStart, z.DSTEnd)
		}
		if len(z.Countries) == 0 && !isEtc(name) {
			noCountry = append(noCountry, name)
		}
	}
	if len(noCountry) > 0 {
		t.Errorf("zones without a country: %v", noCountry)
	}
}

func isEtc(name string) bool { return len(name) > 4 && name[:4] == "Etc/" }
