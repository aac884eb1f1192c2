package boundary

import (
	"sort"

	"github.com/paulmach/orb"
)

func (l *Layer) geometry(i int32) orb.MultiPolygon { return l.ix.Geometry(int(i)) }

func (l *Layer) polygonAt(i int32, p orb.Point) (orb.Polygon, bool) {
	k, ok := l.ix.PolygonAt(int(i), p)
	if !ok {
		return nil, false
	}
	return l.ix.Polygon(int(i), k), true
}

func (l *Layer) contains(i int32, p orb.Point) bool { return l.ix.Contains(int(i), p) }

// moreSpecific orders areas most specific first: administrative areas by
// descending admin_level, then geo-boundaries; smaller boxes first within.
func moreSpecific(a, b *Area) bool {
	if a.Kind != b.Kind {
		return a.Kind == KindAdmin
	}
	if a.AdminLevel != b.AdminLevel {
		return a.AdminLevel > b.AdminLevel
	}
	if sa, sb := boxArea(a.BBox), boxArea(b.BBox); sa != sb {
		return sa < sb
	}
	return a.ID < b.ID
}

func boxArea(b orb.Bound) float64 { return (b.Max[0] - b.Min[0]) * (b.Max[1] - b.Min[1]) }

func (l *Layer) containing(p orb.Point, filter Filter) []*Area {
	var out []*Area
	l.ix.Search(p, func(item, _ int) bool {
		a := l.areas[item]
		if filter != nil && !filter(a) {
			return true
		}
		for _, o := range out {
			if o == a {
				return true
			}
		}
		out = append(out, a)
		return true
	})
	sort.Slice(out, func(i, j int) bool { return moreSpecific(out[i], out[j]) })
	return out
}

func (l *Layer) adminAt(p orb.Point, level int) (*Area, bool) {
	if level < 0 || level > MaxAdmin {
		return nil, false
	}
	var best *Area
	l.ix.Search(p, func(item, _ int) bool {
		a := l.areas[item]
		// An unnamed administrative area (a few OSM relations lack a
		// name) is passed over: the answer is the next one that has one.
		if a.Kind != KindAdmin || a.Admin < 0 || a.Admin > level || a.Name == "" {
			return true
		}
		if best == nil || a.Admin > best.Admin || a.Admin == best.Admin && moreSpecific(a, best) {
			best = a
		}
		return true
	})
	return best, best != nil
}
