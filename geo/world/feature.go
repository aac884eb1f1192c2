package world

import (
	"fmt"
	"sync"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/geo/world/internal/worldfile"
)

// Kind is the kind of a feature.
type Kind uint8

// Kinds of feature.
const (
	// Country is a Natural Earth admin-0 country (or dependency).
	Country = Kind(worldfile.KindCountry)
	// State is a US state, the District of Columbia or a US territory.
	State = Kind(worldfile.KindState)
	// County is a US county or county equivalent (parish, borough, census
	// area, independent city, municipio, ...).
	County = Kind(worldfile.KindCounty)
)

// String names the kind: "country", "state" or "county".
func (k Kind) String() string {
	switch k {
	case Country:
		return "country"
	case State:
		return "state"
	case County:
		return "county"
	}
	return fmt.Sprintf("kind(%d)", uint8(k))
}

// Feature is one country, state or county. Features are shared: treat
// them, their geometry included, as read-only.
type Feature struct {
	Kind Kind
	// ID is the ISO 3166-1 numeric code of a country ("840"; "900" for
	// Kosovo, a user-assigned code), the 2-digit FIPS code of a state
	// ("10") or the 5-digit FIPS code of a county ("10001").
	ID string
	// ISO2 is the ISO 3166-1 alpha-2 code of the feature's country: its
	// own for a country ("US"; "XK" for Kosovo), "US" for a state or
	// county.
	ISO2 string
	// Name is Natural Earth's name of a country ("United States of
	// America", "Bosnia and Herz."), the Census name of a state
	// ("Delaware") or county, with its description ("Kent County",
	// "Baltimore city", "Acadia Parish", "Anchorage Municipality").
	Name string
	// Source is "naturalearth" for countries, "census" for states and
	// counties (see Sources).
	Source string
	// Geometry is the feature's area in lon/lat: rings closed, exterior
	// rings counter-clockwise and holes clockwise (RFC 7946), none
	// crossing the antimeridian (a ring touching it from the east has
	// longitude 180 there, from the west -180; Antarctica's ring is closed
	// through the south pole). Empty for the few features too small to
	// keep an area at the sources' precision (the Vatican, Falls Church
	// city).
	Geometry orb.MultiPolygon
	// BBox is the bounding box of Geometry (zero when it is empty).
	BBox orb.Bound
}

// layer is the decoded file.
type layer struct {
	features []Feature
	sources  []Source
}

// decoded decodes the embedded file once.
var decoded = sync.OnceValues(func() (*layer, error) { return decode(worldBin) })

// Features returns every feature of the layer: countries by ISO numeric
// code, then states and counties by FIPS code. The embedded file is
// decoded on the first call (tens of milliseconds); later calls return the
// same slice, which must not be modified.
func Features() ([]Feature, error) {
	l, err := decoded()
	if err != nil {
		return nil, err
	}
	return l.features, nil
}

// decode builds the layer from the file's bytes.
func decode(b []byte) (*layer, error) {
	d, err := worldfile.Decode(b)
	if err != nil {
		return nil, fmt.Errorf("world: %w", err)
	}
	l := &layer{features: make([]Feature, len(d.Features))}
	for _, t := range d.Topologies {
		l.sources = append(l.sources, sourceOf(t))
	}
	for i := range d.Features {
		f := &d.Features[i]
		g, err := d.Geometry(f)
		if err != nil {
			return nil, fmt.Errorf("world: %w", err)
		}
		var box orb.Bound
		if len(g) > 0 {
			box = bound(g)
		}
		l.features[i] = Feature{
			Kind:     Kind(f.Kind),
			ID:       f.ID,
			ISO2:     f.ISO2,
			Name:     f.Name,
			Source:   d.Topologies[f.Topology].Source.Name,
			Geometry: g,
			BBox:     box,
		}
	}
	return l, nil
}

// bound is mp.Bound() without its NaN care (the coordinates are checked
// finite on decode), several times faster.
func bound(mp orb.MultiPolygon) orb.Bound {
	b := orb.Bound{Min: mp[0][0][0], Max: mp[0][0][0]}
	for _, p := range mp {
		for _, q := range p[0] {
			b.Min[0], b.Max[0] = min(b.Min[0], q[0]), max(b.Max[0], q[0])
			b.Min[1], b.Max[1] = min(b.Min[1], q[1]), max(b.Max[1], q[1])
		}
	}
	return b
}
