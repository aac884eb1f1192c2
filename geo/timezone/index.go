package timezone

import (
	"errors"
	"sort"
	"time"

	"github.com/paulmach/orb"
)

// Options configures an Index.
type Options struct {
	// Finder finds the zone of a point; nil loads one with NewFinder.
	Finder *Finder
	// Areas are the bundle's administrative areas; nil means none (every
	// answer then has zone data only).
	Areas Areas
	// Clock is the one source of the current time for every computation
	// (the year of the DST instants, the CLDR names in use); default
	// time.Now. Tests fix it.
	Clock func() time.Time
}

// Index answers the time-zone data of points. It is safe for concurrent
// use.
type Index struct {
	finder *Finder
	areas  Areas
	clock  func() time.Time
	zones  Zones
	// names lists per zone the names of the areas whose representative
	// point lies in it, coarsest level first.
	names map[string][]string
}

// ErrNoZone is returned for a point tzf has no zone for (it covers the
// world, so only for a point outside the valid coordinate range).
var ErrNoZone = errors.New("timezone: no zone at this point")

// NewIndex returns an Index. It assigns every area of opts.Areas to the
// zone of its representative point (about a microsecond per area), which
// is what Lookup's BoundaryNames lists.
func NewIndex(opts Options) (*Index, error) {
	if opts.Finder == nil {
		f, err := NewFinder()
		if err != nil {
			return nil, err
		}
		opts.Finder = f
	}
	if opts.Clock == nil {
		opts.Clock = time.Now
	}
	ix := &Index{finder: opts.Finder, areas: opts.Areas, clock: opts.Clock, names: map[string][]string{}}
	if opts.Areas != nil {
		ix.names = zoneAreaNames(opts.Finder, opts.Areas.All())
	}
	return ix, nil
}

// zoneAreaNames groups the areas' names by the zone of their
// representative points: each list sorted by level, then name, without
// duplicates.
func zoneAreaNames(f *Finder, areas []Area) map[string][]string {
	byZone := map[string][]Area{}
	for _, a := range areas {
		if a.Name == "" {
			continue
		}
		if z := f.Zone(a.Point); z != "" {
			byZone[z] = append(byZone[z], a)
		}
	}
	out := make(map[string][]string, len(byZone))
	for z, as := range byZone {
		sort.Slice(as, func(i, j int) bool {
			if as[i].Level != as[j].Level {
				return as[i].Level < as[j].Level
			}
			return as[i].Name < as[j].Name
		})
		seen := map[string]bool{}
		names := make([]string, 0, len(as))
		for _, a := range as {
			if !seen[a.Name] {
				seen[a.Name] = true
				names = append(names, a.Name)
			}
		}
		out[z] = names
	}
	return out
}

// Result is the answer for one point.
type Result struct {
	// Zone is the point's zone for the clock's current year.
	Zone *Zone
	// BoundaryNames are the names of the bundle's areas in Zone (never
	// nil).
	BoundaryNames []string
	// Area is the most specific area containing the point, when InArea.
	Area Area
	// InArea reports whether an area of the bundle contains the point.
	InArea bool
	// At is the zone's clock at the instant asked for (LookupAt); nil
	// from Lookup.
	At *Instant
}

// CountryISO3 returns the country of the point: the area's, else the
// country of the zone's principal location (listed first in zone1970.tab:
// JPN for Asia/Tokyo, which also covers an Australian outpost), else ""
// (the nautical zones Etc/GMT+N).
func (r Result) CountryISO3() string {
	if r.InArea && r.Area.CountryISO3 != "" {
		return r.Area.CountryISO3
	}
	if r.Zone != nil && len(r.Zone.Countries) > 0 {
		return r.Zone.Countries[0]
	}
	return ""
}

// Lookup returns the time-zone data of p (lon, lat) at the clock's
// current time.
func (ix *Index) Lookup(p orb.Point) (Result, error) {
	name := ix.finder.Zone(p)
	if name == "" {
		return Result{}, ErrNoZone
	}
	z, err := ix.zones.At(name, ix.clock())
	if err != nil {
		return Result{}, err
	}
	r := Result{Zone: z, BoundaryNames: ix.BoundaryNames(name)}
	if ix.areas != nil {
		r.Area, r.InArea = ix.areas.MostSpecific(p)
	}
	return r, nil
}

// ZoneName returns the IANA name of p's zone, "" where there is none.
func (ix *Index) ZoneName(p orb.Point) string { return ix.finder.Zone(p) }

// BoundaryNames returns the names of the bundle's areas in zone (never
// nil; shared, not to be modified).
func (ix *Index) BoundaryNames(zone string) []string {
	if n, ok := ix.names[zone]; ok {
		return n
	}
	return []string{}
}

// Now returns the index clock's current time.
func (ix *Index) Now() time.Time { return ix.clock() }
