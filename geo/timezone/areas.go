package timezone

import "github.com/paulmach/orb"

// Area is an administrative area of the data bundle as the time-zone layer
// sees it.
type Area struct {
	// ID is the area's boundary id.
	ID int64
	// Name is the area's name.
	Name string
	// CountryISO3 is the ISO 3166-1 alpha-3 code of the area's country.
	CountryISO3 string
	// Level is the area's administrative level, 0 (country) to 8.
	Level int
	// Point is a point inside the area (its representative point).
	Point orb.Point
}

// Areas is the bundle's administrative areas (the boundary layer).
type Areas interface {
	// MostSpecific returns the most specific (highest-level) area
	// containing p, false when none does.
	MostSpecific(p orb.Point) (Area, bool)
	// All returns every area.
	All() []Area
}
