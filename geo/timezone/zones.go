package timezone

import (
	"fmt"
	"sync"
	"time"
)

// Zones caches zone data per zone and year, so that a lookup does no work
// beyond a map read once a zone has been asked for in a year. A Zones is
// safe for concurrent use; the zero value is ready.
type Zones struct {
	locs  sync.Map // zone name -> *time.Location
	years sync.Map // zoneYear -> *Zone
}

// zoneYear keys the cache.
type zoneYear struct {
	name string
	year int
}

// At returns the data of zone name for the calendar year of at in that
// zone's local time.
func (zs *Zones) At(name string, at time.Time) (*Zone, error) {
	loc, err := zs.location(name)
	if err != nil {
		return nil, err
	}
	k := zoneYear{name, at.In(loc).Year()}
	if z, ok := zs.years.Load(k); ok {
		return z.(*Zone), nil
	}
	z, _ := zs.years.LoadOrStore(k, computeZone(name, loc, k.year))
	return z.(*Zone), nil
}

// location returns the loaded zone name.
func (zs *Zones) location(name string) (*time.Location, error) {
	if l, ok := zs.locs.Load(name); ok {
		return l.(*time.Location), nil
	}
	if name == "" {
		return nil, fmt.Errorf("timezone: empty zone name")
	}
	loc, err := LoadLocation(name)
	if err != nil {
		return nil, fmt.Errorf("timezone: %w", err)
	}
	l, _ := zs.locs.LoadOrStore(name, loc)
	return l.(*time.Location), nil
}
