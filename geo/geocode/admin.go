package geocode

import (
	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/geo/boundary"
)

// AdminArea is an administrative area that contains a point, as the
// boundary layer knows it.
type AdminArea struct {
	// Name is the area's name ("New Castle County", "Delaware").
	Name string
	// Level is its OSM admin_level (2 country, 4 state, 6 county, 8
	// municipality, ...).
	Level int
	// Code is its ISO 3166 code when it has one: "US" for a country,
	// "US-DE" for a state; "" otherwise.
	Code string
	// Postal marks a postal-code area (boundary=postal_code): Name is
	// the code ("AD500") and Level is 0.
	Postal bool
	// Bound is the area's bounding box and Center a point inside it;
	// zero when unknown.
	Bound  orb.Bound
	Center orb.Point
	// Base marks an area of the world base layer (a country, or a US
	// state or county at a few hundred metres' precision): the extract's
	// own data (its areas, TIGER county tags) name a state or county
	// before it does.
	Base bool
}

// AdminLookup returns the administrative areas containing p, in any
// order; nil when none is known. The boundary layer provides one; Build
// falls back to the place nodes and TIGER county tags of the extract
// without it.
type AdminLookup func(p orb.Point) []AdminArea

// BoundaryAdmins returns the AdminLookup of a loaded boundary layer: the
// administrative areas containing a point with their admin_level and
// ISO codes (the country's alpha-2 code at level 2), and its postal-code
// areas, smallest first.
func BoundaryAdmins(l *boundary.Layer) AdminLookup {
	if l == nil {
		return nil
	}
	return func(p orb.Point) []AdminArea {
		var out []AdminArea
		for _, a := range l.Containing(p, func(a *boundary.Area) bool {
			return a.Name != "" && (a.Kind == boundary.KindAdmin || a.Boundary == "postal_code")
		}) {
			if a.Kind != boundary.KindAdmin {
				out = append(out, AdminArea{Name: a.Name, Postal: true})
				continue
			}
			code := a.ISO3166_2
			if a.AdminLevel == 2 {
				code = a.CountryISO2
			}
			base := a.Source == boundary.SourceNaturalEarth || a.Source == boundary.SourceCensus
			out = append(out, AdminArea{Name: a.Name, Level: a.AdminLevel, Code: code, Bound: a.BBox, Center: a.RepPoint, Base: base})
		}
		return out
	}
}
