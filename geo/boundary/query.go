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

// better reports whether administrative area a answers before b at one
// point: a finer category, else at the same category a file's area before
// the extract's before the base layer's, else the more specific one.
func better(a, b *Area) bool {
	if a.Admin != b.Admin {
		return a.Admin > b.Admin
	}
	if ra, rb := sourceRank(a.Source), sourceRank(b.Source); ra != rb {
		return ra < rb
	}
	return moreSpecific(a, b)
}

// containing returns the areas containing p that filter selects, most
// specific first: the layer's own, and the base layer's where no area of
// the layer's own has their administrative category (a clipped OSM area
// giving way to the base layer's).
func (l *Layer) containing(p orb.Point, filter Filter) []*Area {
	base := l.baseAdmins(p)
	var out []*Area
	var have [MaxAdmin + 1]bool
	l.ix.Search(p, func(item, _ int) bool {
		a := l.areas[item]
		if filter != nil && !filter(a) {
			return true
		}
		if a.Kind == KindAdmin && a.Admin >= 0 && a.Clipped && base[a.Admin] != nil {
			return true
		}
		for _, o := range out {
			if o == a {
				return true
			}
		}
		out = append(out, a)
		if a.Kind == KindAdmin && a.Admin >= 0 && a.Name != "" {
			have[a.Admin] = true
		}
		return true
	})
	for k, b := range base {
		if b != nil && !have[k] && (filter == nil || filter(b)) {
			out = append(out, b)
		}
	}
	sort.Slice(out, func(i, j int) bool { return moreSpecific(out[i], out[j]) })
	return out
}

// adminAt is AdminAt: the best area of the finest category <= level among
// the layer's own areas and its base layer's.
func (l *Layer) adminAt(p orb.Point, level int) (*Area, bool) {
	if level < 0 || level > MaxAdmin {
		return nil, false
	}
	base := l.baseAdmins(p)
	var best *Area
	l.ix.Search(p, func(item, _ int) bool {
		a := l.areas[item]
		// An unnamed administrative area (a few OSM relations lack a
		// name) is passed over: the answer is the next one that has one.
		if a.Kind != KindAdmin || a.Admin < 0 || a.Admin > level || a.Name == "" {
			return true
		}
		if a.Clipped && base[a.Admin] != nil {
			return true
		}
		if best == nil || better(a, best) {
			best = a
		}
		return true
	})
	for k := level; k >= 0; k-- {
		if b := base[k]; b != nil {
			if best == nil || k > best.Admin {
				best = b
			}
			break
		}
	}
	return best, best != nil
}
