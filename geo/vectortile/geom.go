package vectortile

import (
	"math"

	"github.com/paulmach/orb"
	"github.com/paulmach/orb/encoding/mvt"
	"github.com/paulmach/orb/geojson"
	"github.com/paulmach/orb/planar"

	"github.com/geosvc/geosvc/geo/cartography"
	"github.com/geosvc/geosvc/geo/mapdata"
)

// round returns g (tile units) on the integer grid: repeated points
// removed, lines of fewer than two points and rings of less than minArea
// dropped, exterior rings of positive area and holes of negative area in
// tile coordinates (y down) as MVT 2.1 requires; nil when nothing is
// left.
func round(g orb.Geometry, minArea float64) orb.Geometry {
	switch g := g.(type) {
	case orb.Point:
		return orb.Point{math.Round(g[0]), math.Round(g[1])}
	case orb.LineString:
		if l := roundLine(g); len(l) >= 2 {
			return l
		}
	case orb.MultiLineString:
		var out orb.MultiLineString
		for _, l := range g {
			if l := roundLine(l); len(l) >= 2 {
				out = append(out, l)
			}
		}
		if len(out) == 1 {
			return out[0]
		}
		if len(out) > 1 {
			return out
		}
	case orb.Polygon:
		if p := roundPolygon(g, minArea); p != nil {
			return p
		}
	case orb.MultiPolygon:
		var out orb.MultiPolygon
		for _, p := range g {
			if p := roundPolygon(p, minArea); p != nil {
				out = append(out, p)
			}
		}
		if len(out) == 1 {
			return out[0]
		}
		if len(out) > 1 {
			return out
		}
	}
	return nil
}

func roundLine(l []orb.Point) orb.LineString {
	out := make(orb.LineString, 0, len(l))
	for _, p := range l {
		q := orb.Point{math.Round(p[0]), math.Round(p[1])}
		if len(out) == 0 || out[len(out)-1] != q {
			out = append(out, q)
		}
	}
	return out
}

// roundPolygon rounds p's rings: the exterior ring dropped (and so the
// polygon) when it is smaller than minArea, holes when they are.
func roundPolygon(p orb.Polygon, minArea float64) orb.Polygon {
	var out orb.Polygon
	for i, r := range p {
		rr := orb.Ring(roundLine(r))
		if len(rr) > 0 && rr[0] != rr[len(rr)-1] {
			rr = append(rr, rr[0])
		}
		a := planar.Area(rr)
		if len(rr) < 4 || math.Abs(a) < minArea {
			if i == 0 {
				return nil
			}
			continue
		}
		// Positive shoelace area: clockwise on screen (y down).
		if (i == 0) != (a > 0) {
			rr.Reverse()
		}
		out = append(out, rr)
	}
	return out
}

// roadKey is what merged roads share.
type roadKey struct {
	typ, class, name, ref string
	oneway                bool
	bridge, tunnel        bool
	layer                 int8
}

// mergeRoads joins edges that meet end to start and share every
// attribute (one-way edges against their shape reversed first), so that
// a street is one feature rather than one per junction.
func mergeRoads(rs []cartography.Road) []cartography.Road {
	shapes := make([][]orb.Point, len(rs))
	keys := make([]roadKey, len(rs))
	for i, r := range rs {
		shapes[i] = r.Shape
		if r.Oneway < 0 {
			s := make([]orb.Point, len(r.Shape))
			for k, p := range r.Shape {
				s[len(s)-1-k] = p
			}
			shapes[i] = s
		}
		keys[i] = roadKey{r.Type, r.Class, r.Name, r.Ref, r.Oneway != 0, r.Bridge, r.Tunnel, r.Layer}
	}
	shapes, keys = mergeLines(shapes, keys)
	out := make([]cartography.Road, len(shapes))
	for i, k := range keys {
		out[i] = cartography.Road{Shape: shapes[i], Type: k.typ, Class: k.class, Name: k.name, Ref: k.ref, Bridge: k.bridge, Tunnel: k.tunnel, Layer: k.layer}
		if k.oneway {
			out[i].Oneway = 1
		}
	}
	return out
}

// mergeLines joins lines that meet end to start and have the same key
// into chains; it returns the chains and their keys.
func mergeLines[K comparable](lines [][]orb.Point, keys []K) ([][]orb.Point, []K) {
	type end struct {
		k K
		p orb.Point
	}
	byStart := map[end]int{}
	for i, l := range lines {
		if len(l) >= 2 {
			byStart[end{keys[i], l[0]}] = i
		}
	}
	used := make([]bool, len(lines))
	// hasPred: a line another runs into; chains begin at the others.
	hasPred := make([]bool, len(lines))
	for i, l := range lines {
		if n := len(l); n >= 2 {
			if j, ok := byStart[end{keys[i], l[n-1]}]; ok && j != i {
				hasPred[j] = true
			}
		}
	}
	var out [][]orb.Point
	var outKeys []K
	chain := func(i int) {
		s := append([]orb.Point(nil), lines[i]...)
		used[i] = true
		for {
			j, ok := byStart[end{keys[i], s[len(s)-1]}]
			if !ok || used[j] {
				break
			}
			used[j] = true
			s = append(s, lines[j][1:]...)
		}
		out = append(out, s)
		outKeys = append(outKeys, keys[i])
	}
	for i := range lines {
		if !used[i] && !hasPred[i] && len(lines[i]) >= 2 {
			chain(i)
		}
	}
	for i := range lines { // loops
		if !used[i] && len(lines[i]) >= 2 {
			chain(i)
		}
	}
	return out, outKeys
}

// placeMinZoom is the first zoom of places of a label rank (the position
// of cartography.LabelType in cartography.LabelTypes, 1-based).
func placeMinZoom(rank int) int {
	switch {
	case rank <= 4: // capitals, cities of 50,000 and more
		return 4
	case rank <= 6: // 5,000 and more
		return 8
	case rank == 7:
		return 10
	case rank == 8:
		return 11
	default: // districts
		return 12
	}
}

// labelSpacing is the least distance in tile units between two places'
// points below MaxZoom (40 pixels of a 512-pixel tile).
const labelSpacing = 40 * Extent / 512

// places are the labelled places: the map layer's, else the gazetteer's,
// the most important first, thinned so that labels rarely collide.
func (t *tileBuilder) places() *mvt.Layer {
	l := layer("places")
	var ps []mapdata.Place
	if t.src.Layer != nil {
		ps = t.src.Layer.Places(t.b)
	}
	if t.src.Places != nil {
		ps = append(ps, t.src.Places(t.b)...)
	}
	type kept struct {
		rank int
		p    orb.Point
		pl   mapdata.Place
	}
	var cand []kept
	for _, p := range ps {
		if p.Name == "" {
			continue
		}
		rank := labelRank(cartography.LabelType(p))
		if t.z < placeMinZoom(rank) {
			continue
		}
		x, y := t.view.Pixel(p.Point)
		cand = append(cand, kept{rank, orb.Point{x, y}, p})
	}
	// Most important first (stable: the layer's own order within a rank).
	for i := 1; i < len(cand); i++ {
		for j := i; j > 0 && cand[j].rank < cand[j-1].rank; j-- {
			cand[j], cand[j-1] = cand[j-1], cand[j]
		}
	}
	var placed []orb.Point
	for _, c := range cand {
		if t.z < MaxZoom {
			clash := false
			for _, q := range placed {
				if math.Abs(q[0]-c.p[0]) < labelSpacing && math.Abs(q[1]-c.p[1]) < labelSpacing {
					clash = true
					break
				}
			}
			if clash {
				continue
			}
		}
		placed = append(placed, c.p)
		props := geojson.Properties{"name": c.pl.Name, "class": c.pl.Kind.String(), "rank": c.rank}
		if c.pl.Population > 0 {
			props["population"] = c.pl.Population
		}
		if c.pl.Capital {
			props["capital"] = true
		}
		t.add(l, c.p, props)
	}
	return l
}

// labelRank is the 1-based position of a label type in
// cartography.LabelTypes (1: a capital).
func labelRank(lt string) int {
	for i, n := range cartography.LabelTypes {
		if n == lt {
			return i + 1
		}
	}
	return len(cartography.LabelTypes) + 1
}
