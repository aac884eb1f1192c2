package geocode

import (
	"math"
	"sort"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/geo"
)

// NearbyKind selects what Nearby looks for.
type NearbyKind int

// The kinds of Nearby.
const (
	// NearbyCities are the places of type city, town and village.
	NearbyCities NearbyKind = iota
	// NearbyLargeCities are the places of type city.
	NearbyLargeCities
	// NearbyPostalCodes are the postcodes (located at the middle of
	// their addresses and streets).
	NearbyPostalCodes
	// NearbyStreets are the named streets, each at its point nearest the
	// query point.
	NearbyStreets
)

// Nearby returns up to limit features of a kind within radiusM metres of
// p (straight line), nearest first, each with Distance set.
func (ix *Index) Nearby(p orb.Point, radiusM float64, kind NearbyKind, limit int) []Candidate {
	if limit <= 0 || radiusM <= 0 {
		return nil
	}
	type hit struct {
		fid uint32
		d   float64
		at  orb.Point
	}
	var hits []hit
	switch kind {
	case NearbyCities, NearbyLargeCities:
		for _, fid := range ix.placeFeat {
			f := &ix.feats[fid]
			switch ix.str(f.class) {
			case "city":
			case "town", "village":
				if kind == NearbyLargeCities {
					continue
				}
			default:
				continue
			}
			if d := geo.HaversineM(p, f.pt); d <= radiusM {
				hits = append(hits, hit{fid, d, f.pt})
			}
		}
	case NearbyPostalCodes:
		for _, fid := range ix.postcodeFeat {
			if f := &ix.feats[fid]; f.kind == KindPostcode {
				if d := geo.HaversineM(p, f.pt); d <= radiusM {
					hits = append(hits, hit{fid, d, f.pt})
				}
			}
		}
	case NearbyStreets:
		best := map[uint32]hit{}
		kx := kxAt(p)
		ix.segGrid.near(p, radiusM, func(id uint32) {
			sg := ix.seg(id)
			f := &ix.feats[sg.feat]
			if f.kind != KindStreet || f.rank == streetAlias {
				return
			}
			pts := ix.part(sg.part)
			d, t := segDistK(p, pts[sg.i], pts[sg.i+1], kx)
			if h, ok := best[sg.feat]; d <= radiusM && (!ok || d < h.d) {
				best[sg.feat] = hit{sg.feat, d, lerp(pts[sg.i], pts[sg.i+1], t)}
			}
		})
		for _, h := range best {
			hits = append(hits, h)
		}
	}
	sort.Slice(hits, func(i, j int) bool {
		if hits[i].d != hits[j].d {
			return hits[i].d < hits[j].d
		}
		return hits[i].fid < hits[j].fid
	})
	out := make([]Candidate, 0, min(limit, len(hits)))
	for _, h := range hits[:min(limit, len(hits))] {
		c := ix.render(h.fid, 0, orb.Point{})
		if kind == NearbyStreets {
			c.Location = h.at
		}
		c.Distance = math.Round(h.d*10) / 10
		out = append(out, c)
	}
	return out
}
