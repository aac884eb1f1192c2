package world

import (
	"math/rand/v2"
	"sync"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/geo/spatial"
)

// Index answers which country, state or county contains a point. It is
// read-only and safe for concurrent use.
type Index struct {
	features []Feature
	kinds    [County + 1]kindIndex
}

// kindIndex is the spatial index of one kind's features.
type kindIndex struct {
	ix *spatial.Index
	// feature maps an item of ix to its index in features.
	feature []int32
}

// lookup builds the Index once.
var lookup = sync.OnceValues(func() (*Index, error) {
	fs, err := Features()
	if err != nil {
		return nil, err
	}
	return newIndex(fs), nil
})

// Lookup returns the layer's point index, built on the first call (with
// Features, if that was not called yet).
func Lookup() (*Index, error) { return lookup() }

// newIndex indexes features by kind; features without geometry are left
// out.
func newIndex(fs []Feature) *Index {
	ix := &Index{features: fs}
	var bs [County + 1]*spatial.Builder
	var points [County + 1]int
	for i := range fs {
		if k := fs[i].Kind; k >= Country && k <= County {
			for _, p := range fs[i].Geometry {
				for _, r := range p {
					points[k] += len(r)
				}
			}
		}
	}
	for i := range fs {
		f := &fs[i]
		if f.Kind < Country || f.Kind > County || len(f.Geometry) == 0 {
			continue
		}
		if bs[f.Kind] == nil {
			bs[f.Kind] = spatial.NewBuilder()
			bs[f.Kind].Grow(points[f.Kind])
		}
		bs[f.Kind].Add(f.Geometry)
		ix.kinds[f.Kind].feature = append(ix.kinds[f.Kind].feature, int32(i))
	}
	for k, b := range bs {
		if b != nil {
			ix.kinds[k].ix = b.Build()
		}
	}
	return ix
}

// LandPoints returns n seeded random points on land, the same for the
// same seed: drawn uniformly in longitude and latitude over the whole
// globe (so polar lands, with the longest rings, weigh more than their
// area) and kept when some country contains them. Benchmarks and load
// tests draw their world-wide points with it.
func (ix *Index) LandPoints(n int, seed uint64) []orb.Point {
	rng := rand.New(rand.NewPCG(seed, 2))
	pts := make([]orb.Point, 0, max(n, 0))
	for len(pts) < n {
		p := orb.Point{rng.Float64()*360 - 180, rng.Float64()*180 - 90}
		if _, ok := ix.CountryAt(p); ok {
			pts = append(pts, p)
		}
	}
	return pts
}

// At returns the feature of kind k containing p (lon, lat), and false when
// none does. A point on a border shared by two features (within about
// 0.1 mm) answers the one that comes first in Features' order; a point on
// the antimeridian is found whether written 180 or -180.
func (ix *Index) At(k Kind, p orb.Point) (*Feature, bool) {
	if k < Country || k > County || ix.kinds[k].ix == nil {
		return nil, false
	}
	ki := &ix.kinds[k]
	best := int32(-1)
	ki.ix.Search(p, func(item, _ int) bool {
		if f := ki.feature[item]; best < 0 || f < best {
			best = f
		}
		return true
	})
	if best < 0 {
		return nil, false
	}
	return &ix.features[best], true
}

// CountryAt returns the country containing p: At(Country, p).
func (ix *Index) CountryAt(p orb.Point) (*Feature, bool) { return ix.At(Country, p) }

// StateAt returns the US state (or DC, or territory) containing p:
// At(State, p).
func (ix *Index) StateAt(p orb.Point) (*Feature, bool) { return ix.At(State, p) }

// CountyAt returns the US county containing p: At(County, p).
func (ix *Index) CountyAt(p orb.Point) (*Feature, bool) { return ix.At(County, p) }
