package boundary

import (
	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/geo/spatial"
	"github.com/geosvc/geosvc/internal/binfmt"
)

// Layer is the loaded boundary layer: the areas and their spatial index.
// It is safe for concurrent use.
type Layer struct {
	areas []*Area
	byID  map[int64]*Area
	cats  []Category
	ix    *spatial.Index
	// base answers where the layer's own areas do not (WithBase).
	base *Layer
	// deferred holds the file checks of LoadDeferred (nil: done).
	deferred *binfmt.Deferred
}

// Load reads the layer from the bundle directory dir (its FileName), with
// the world base layer (World) as its base.
func Load(dir string) (*Layer, error) { return load(dir, false) }

// LoadDeferred is Load without the file's checksum, which Verify computes
// later: opening reads the areas and the index's tables, not every
// polygon's bytes (a server verifies in the background and stops on a
// corrupt file). A truncated file or a bad section table still fails
// here.
func LoadDeferred(dir string) (*Layer, error) { return load(dir, true) }

// Verify computes the checksum LoadDeferred left for later, once; nil
// for a layer loaded with Load or a nil one.
func (l *Layer) Verify() error {
	if l == nil {
		return nil
	}
	return l.deferred.Verify()
}

// Areas returns every area of the layer by ascending id (not those of its
// base layer). The slice is shared: do not modify it.
func (l *Layer) Areas() []*Area { return l.areas }

// ByID returns the area with that boundary id.
func (l *Layer) ByID(id int64) (*Area, bool) {
	a, ok := l.byID[id]
	if !ok && l.base != nil {
		return l.base.ByID(id)
	}
	return a, ok
}

// Categories returns the geo-boundary categories of the layer, by code.
func (l *Layer) Categories() []Category { return l.cats }

// Containing returns the areas containing p that filter selects (nil: all),
// most specific first: administrative areas by descending admin_level,
// then the others, smaller areas before larger ones.
func (l *Layer) Containing(p orb.Point, filter Filter) []*Area { return l.containing(p, filter) }

// AdminHierarchy returns the named administrative areas containing p, most
// specific first (highest admin_level first; the country last).
func (l *Layer) AdminHierarchy(p orb.Point) []*Area {
	return l.containing(p, func(a *Area) bool { return a.Kind == KindAdmin && a.Name != "" })
}

// MostSpecificAdmin returns the administrative area of highest admin_level
// containing p, and false when p is outside every administrative area.
func (l *Layer) MostSpecificAdmin(p orb.Point) (*Area, bool) {
	h := l.AdminHierarchy(p)
	if len(h) == 0 {
		return nil, false
	}
	return h[0], true
}

// AdminAt returns the area of category admin<level> (0..8) containing p.
// When no area of that category contains p it falls back to the nearest
// coarser category (admin<level-1>, ..., admin0), so that every level
// covers the country; false when p is in no administrative area with a
// category at or above level, or level is outside 0..8.
func (l *Layer) AdminAt(p orb.Point, level int) (*Area, bool) { return l.adminAt(p, level) }

// GeoBoundariesAt returns the geo-boundaries (non-administrative areas)
// containing p, smaller first; with a category, only those of that
// category code.
func (l *Layer) GeoBoundariesAt(p orb.Point, category *int) []*Area {
	return l.containing(p, func(a *Area) bool {
		return a.Kind == KindGeo && (category == nil || a.CategoryCode == *category)
	})
}

// HasCategory reports whether code is a geo-boundary category code of the
// layer (whether or not any area of it contains a given point).
func (l *Layer) HasCategory(code int) bool {
	for _, c := range l.cats {
		if c.Code == code {
			return true
		}
	}
	return false
}
