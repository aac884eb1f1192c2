package boundary

import (
	"fmt"
	"strconv"
	"sync"

	"github.com/geosvc/geosvc/geo/world"
)

// World returns the world base layer (geo/world): every country of
// Natural Earth, and in the US every state and county of the Census
// cartographic boundaries, as administrative areas (admin0, admin1,
// admin2; admin_level 2, 4, 6), decoded once. Build writes it into the
// layer's file, and every layer Load answers from that copy, read in
// place, where the bundle's own areas do not (WithBase).
func World() (*Layer, error) { return worldLayer() }

var worldLayer = sync.OnceValues(func() (*Layer, error) {
	fs, err := world.Features()
	if err != nil {
		return nil, fmt.Errorf("boundary: world base layer: %w", err)
	}
	areas := make([]BaseArea, 0, len(fs))
	for i := range fs {
		f := &fs[i]
		if len(f.Geometry) == 0 {
			continue // too small to keep an area at the sources' precision
		}
		code, err := strconv.ParseInt(f.ID, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("boundary: world base layer: feature %q: %w", f.ID, err)
		}
		a := BaseArea{Name: f.Name, CountryISO2: f.ISO2, Source: f.Source, Geometry: f.Geometry}
		switch f.Kind {
		case world.Country:
			a.ID, a.Admin, a.AdminLevel = BaseCountryID+code, 0, 2
		case world.State:
			a.ID, a.Admin, a.AdminLevel = BaseUSID+code, 1, 4
		case world.County:
			a.ID, a.Admin, a.AdminLevel = BaseUSID+code, 2, 6
		default:
			continue
		}
		areas = append(areas, a)
	}
	return NewBase(areas), nil
})
