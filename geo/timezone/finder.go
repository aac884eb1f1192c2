package timezone

import (
	"fmt"

	"github.com/paulmach/orb"
	"github.com/ringsaturn/tzf"
)

// Finder finds the IANA zone of a point from tzf's offline polygons (its
// lite data set, compiled into the binary). It covers the whole world:
// points at sea get the nautical zones Etc/GMT+N. A Finder is safe for
// concurrent use.
type Finder struct {
	f tzf.F
}

// NewFinder loads tzf's lite data set (about a second and 60 MB).
func NewFinder() (*Finder, error) {
	f, err := tzf.NewDefaultFinder()
	if err != nil {
		return nil, fmt.Errorf("timezone: loading tzf data: %w", err)
	}
	return &Finder{f: f}, nil
}

// Zone returns the IANA zone at p (lon, lat), "" when tzf has none.
func (f *Finder) Zone(p orb.Point) string {
	return f.f.GetTimezoneName(p[0], p[1])
}

// Zones returns every zone name the data set can return.
func (f *Finder) Zones() []string { return f.f.TimezoneNames() }

// DataVersion returns the tz release of tzf's polygons ("2025b").
func (f *Finder) DataVersion() string { return f.f.DataVersion() }
