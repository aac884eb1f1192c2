package zip4

import (
	"math"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/geo"
)

// A face is one block face: the stretch of a TIGER-tagged street between
// two consecutive split points (intersections with other streets, and the
// ends of its OSM way; a closed loop is cut in two halves).
type face struct {
	road     int       // index in the road list
	index    int       // position of the face along its way, from 0
	from, to int       // first and last point index in the road, inclusive
	zip      [2]string // ZIP5 of the left and right side, "" when none
	mid      orb.Point // the point halfway along the face
	// before and after are the street's points just before the face's
	// first and just after its last point, where the street goes on: on
	// its own way, or on the one other way that continues it at a way's
	// end (nothing else meets there). The end rays bisect the bend there.
	before, after       orb.Point
	hasBefore, hasAfter bool
}

// Side indexes of face.zip.
const (
	left  = 0
	right = 1
)

// splitFaces cuts every TIGER-tagged road at the nodes it shares with
// another street (or with itself), and at its ends, into faces. rep counts
// the tags read.
func splitFaces(roads []Road, rep *Report) []face {
	use := map[int64]int32{}
	for i := range roads {
		n := roads[i].Nodes
		last := len(n)
		if n[0] == n[len(n)-1] {
			last-- // a closed way's last node is its first
		}
		for _, id := range n[:last] {
			use[id]++
		}
	}
	// Way ends, for the streets continued by exactly one other way.
	ends := map[int64][]endRef{}
	for ri := range roads {
		n := roads[ri].Nodes
		if n[0] == n[len(n)-1] {
			continue
		}
		ends[n[0]] = append(ends[n[0]], endRef{ri, 0})
		ends[n[len(n)-1]] = append(ends[n[len(n)-1]], endRef{ri, len(n) - 1})
	}
	// continued returns the point next to node idx of road ri on the way
	// that continues it there, if one does.
	continued := func(ri, idx int) (orb.Point, bool) {
		r := &roads[ri]
		id := r.Nodes[idx]
		if use[id] != 2 || len(ends[id]) != 2 {
			return orb.Point{}, false
		}
		for _, e := range ends[id] {
			if e.road == ri {
				continue
			}
			o := roads[e.road].Points
			if e.idx == 0 {
				return o[1], true
			}
			return o[len(o)-2], true
		}
		return orb.Point{}, false
	}
	var faces []face
	for ri := range roads {
		r := &roads[ri]
		if !r.Tagged() {
			continue
		}
		rep.TigerRoads++
		var zip [2]string
		for side, v := range [2]string{r.ZipLeft, r.ZipRight} {
			if v == "" {
				continue
			}
			z := ParseTigerZips(v)
			switch {
			case len(z) == 0:
				rep.BadTags++
			case len(z) > 1:
				rep.ListTags++
			}
			if len(z) > 0 {
				zip[side] = z[0]
			}
		}
		if zip[left] == "" && zip[right] == "" {
			continue
		}
		from, index := 0, 0
		for i := 1; i < len(r.Nodes); i++ {
			if i < len(r.Nodes)-1 && use[r.Nodes[i]] < 2 {
				continue
			}
			// A loop that meets nothing but itself (a closed way, a
			// cul-de-sac circle) is cut in two halves: a face whose
			// ends coincide has no simple polygon.
			cuts := []int{from, i}
			if r.Nodes[from] == r.Nodes[i] && i-from >= 2 {
				cuts = []int{from, from + (i-from)/2, i}
			}
			for k := 0; k+1 < len(cuts); k++ {
				f := face{road: ri, index: index, from: cuts[k], to: cuts[k+1], zip: zip,
					mid: halfway(r.Points[cuts[k] : cuts[k+1]+1])}
				closed := r.Nodes[0] == r.Nodes[len(r.Nodes)-1]
				switch {
				case f.from > 0:
					f.before, f.hasBefore = r.Points[f.from-1], true
				case closed:
					f.before, f.hasBefore = r.Points[len(r.Points)-2], true
				default:
					f.before, f.hasBefore = continued(ri, 0)
				}
				switch {
				case f.to < len(r.Points)-1:
					f.after, f.hasAfter = r.Points[f.to+1], true
				case closed:
					f.after, f.hasAfter = r.Points[1], true
				default:
					f.after, f.hasAfter = continued(ri, f.to)
				}
				faces = append(faces, f)
				index++
			}
			from = i
		}
	}
	rep.Faces = len(faces)
	return faces
}

// endRef is a way's end: the road and the point index (0 or last).
type endRef struct{ road, idx int }

// halfway returns the point halfway along the polyline pts.
func halfway(pts []orb.Point) orb.Point {
	total := 0.0
	for i := 1; i < len(pts); i++ {
		total += geo.HaversineM(pts[i-1], pts[i])
	}
	half := total / 2
	for i := 1; i < len(pts); i++ {
		d := geo.HaversineM(pts[i-1], pts[i])
		if d >= half && d > 0 {
			f := half / d
			return orb.Point{pts[i-1][0] + f*(pts[i][0]-pts[i-1][0]), pts[i-1][1] + f*(pts[i][1]-pts[i-1][1])}
		}
		half -= d
	}
	return pts[len(pts)-1]
}

// segIndex is every street segment in a lon/lat grid, for the searches of
// the face polygons.
type segIndex struct {
	cell  float64
	cells map[[2]int32][]int32
	segs  []seg
}

// seg is one street segment.
type seg struct {
	a, b   orb.Point
	face   int32   // the face it belongs to, -1 for streets without ZIP tags
	s0, s1 float64 // arc length from the face's start to a and b, metres
}

// segCell is the grid's cell size in degrees (about 200 m).
const segCell = 0.002

// newSegIndex indexes the segments of every road, with the faces of the
// tagged ones.
func newSegIndex(roads []Road, faces []face) *segIndex {
	x := &segIndex{cell: segCell, cells: map[[2]int32][]int32{}}
	faceOf := map[int][]int{} // road -> its faces
	for fi, f := range faces {
		faceOf[f.road] = append(faceOf[f.road], fi)
	}
	for ri := range roads {
		pts := roads[ri].Points
		fs := faceOf[ri]
		k := 0 // current face among fs
		s := 0.0
		for i := 1; i < len(pts); i++ {
			fid := int32(-1)
			if len(fs) > 0 {
				for k < len(fs)-1 && faces[fs[k]].to < i {
					k++
					s = 0
				}
				fid = int32(fs[k])
			}
			d := geo.HaversineM(pts[i-1], pts[i])
			x.add(seg{a: pts[i-1], b: pts[i], face: fid, s0: s, s1: s + d})
			s += d
		}
	}
	return x
}

// add indexes one segment in every cell its bounding box overlaps.
func (x *segIndex) add(s seg) {
	id := int32(len(x.segs))
	x.segs = append(x.segs, s)
	x0, y0 := x.cellOf(math.Min(s.a[0], s.b[0]), math.Min(s.a[1], s.b[1]))
	x1, y1 := x.cellOf(math.Max(s.a[0], s.b[0]), math.Max(s.a[1], s.b[1]))
	for cy := y0; cy <= y1; cy++ {
		for cx := x0; cx <= x1; cx++ {
			k := [2]int32{cx, cy}
			x.cells[k] = append(x.cells[k], id)
		}
	}
}

func (x *segIndex) cellOf(lon, lat float64) (int32, int32) {
	return int32(math.Floor(lon / x.cell)), int32(math.Floor(lat / x.cell))
}

// query calls fn for every segment id listed in the cells overlapping b
// (a segment may come more than once).
func (x *segIndex) query(b orb.Bound, fn func(id int32)) {
	x0, y0 := x.cellOf(b.Min[0], b.Min[1])
	x1, y1 := x.cellOf(b.Max[0], b.Max[1])
	for cy := y0; cy <= y1; cy++ {
		for cx := x0; cx <= x1; cx++ {
			for _, id := range x.cells[[2]int32{cx, cy}] {
				fn(id)
			}
		}
	}
}
