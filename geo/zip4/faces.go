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
				faces = append(faces, face{road: ri, index: index, from: cuts[k], to: cuts[k+1], zip: zip,
					mid: halfway(r.Points[cuts[k] : cuts[k+1]+1])})
				index++
			}
			from = i
		}
	}
	rep.Faces = len(faces)
	return faces
}

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
