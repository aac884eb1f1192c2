package zip4

import (
	"math"
	"math/bits"
	"slices"
	"sort"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/geo"
)

// A face is one block face: the stretch of a TIGER-tagged street between
// two consecutive split points (intersections with other streets, and the
// ends of its OSM way; a closed loop is cut in two halves).
type face struct {
	road     int32     // index in the road list
	index    int32     // position of the face along its way, from 0
	from, to int32     // first and last point index in the road, inclusive
	zip      [2]int32  // ZIP5 of the left and right side: its number in the ZIP5 table, 0 when none
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
// another street (or with itself), and at its ends, into faces, and
// returns them with the table of their ZIP5s (sorted, "" first: a face's
// zip numbers are in the order of the codes). rep counts the tags read. The nodes are numbered (nodeIndex) so that their counts
// and the way ends meeting at them are arrays, not maps keyed by node id.
func splitFaces(roads []Road, rep *Report) ([]face, []string) {
	zipNum := map[string]int32{"": 0}
	zips := []string{""}
	idx, distinct := nodeIndex(roads)
	// use counts the ways through each node (a closed way's last node is
	// its first), saturating: only 0, 1, 2 and more matter.
	use := make([]uint8, distinct)
	for i := range roads {
		n := idx[i]
		last := len(n)
		if roads[i].Nodes[0] == roads[i].Nodes[len(n)-1] {
			last--
		}
		for _, k := range n[:last] {
			if use[k] < 255 {
				use[k]++
			}
		}
	}
	// Way ends, for the streets continued by exactly one other way,
	// sorted by node.
	var ends []endRef
	for ri := range roads {
		n := roads[ri].Nodes
		if n[0] == n[len(n)-1] {
			continue
		}
		ends = append(ends, endRef{idx[ri][0], int32(ri), 0}, endRef{idx[ri][len(n)-1], int32(ri), int32(len(n) - 1)})
	}
	sort.Slice(ends, func(a, b int) bool {
		if ends[a].node != ends[b].node {
			return ends[a].node < ends[b].node
		}
		return ends[a].road < ends[b].road || ends[a].road == ends[b].road && ends[a].idx < ends[b].idx
	})
	endsAt := func(node int32) []endRef {
		lo := sort.Search(len(ends), func(i int) bool { return ends[i].node >= node })
		hi := lo
		for hi < len(ends) && ends[hi].node == node {
			hi++
		}
		return ends[lo:hi]
	}
	// continued returns the point next to node idx of road ri on the way
	// that continues it there, if one does.
	continued := func(ri, i int) (orb.Point, bool) {
		k := idx[ri][i]
		es := endsAt(k)
		if use[k] != 2 || len(es) != 2 {
			return orb.Point{}, false
		}
		for _, e := range es {
			if int(e.road) == ri {
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
		var zip [2]int32
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
				k, ok := zipNum[z[0]]
				if !ok {
					k = int32(len(zips))
					zipNum[z[0]] = k
					zips = append(zips, z[0])
				}
				zip[side] = k
			}
		}
		if zip[left] == 0 && zip[right] == 0 {
			continue
		}
		from, index := 0, 0
		for i := 1; i < len(r.Nodes); i++ {
			if i < len(r.Nodes)-1 && use[idx[ri][i]] < 2 {
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
				f := face{road: int32(ri), index: int32(index), from: int32(cuts[k]), to: int32(cuts[k+1]), zip: zip,
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
				case int(f.to) < len(r.Points)-1:
					f.after, f.hasAfter = r.Points[f.to+1], true
				case closed:
					f.after, f.hasAfter = r.Points[1], true
				default:
					f.after, f.hasAfter = continued(ri, int(f.to))
				}
				faces = append(faces, f)
				index++
			}
			from = i
		}
	}
	rep.Faces = len(faces)
	// Number the ZIP5s in the order of their codes.
	order := make([]int32, len(zips))
	for i := range order {
		order[i] = int32(i)
	}
	sort.Slice(order, func(a, b int) bool { return zips[order[a]] < zips[order[b]] })
	renum := make([]int32, len(zips))
	sorted := make([]string, len(zips))
	for k, i := range order {
		renum[i], sorted[k] = int32(k), zips[i]
	}
	for fi := range faces {
		for side := range faces[fi].zip {
			faces[fi].zip[side] = renum[faces[fi].zip[side]]
		}
	}
	return faces, sorted
}

// nodeIndex numbers the distinct nodes of the roads 0, 1, ... in id order:
// idx[road][i] is the number of the road's node i (the slices share one
// array). It returns the number of distinct nodes.
func nodeIndex(roads []Road) (idx [][]int32, distinct int) {
	total := 0
	for i := range roads {
		total += len(roads[i].Nodes)
	}
	ids := make([]int64, 0, total)
	for i := range roads {
		ids = append(ids, roads[i].Nodes...)
	}
	slices.Sort(ids)
	ids = slices.Compact(ids)
	flat := make([]int32, total)
	idx = make([][]int32, len(roads))
	off := 0
	for i := range roads {
		n := roads[i].Nodes
		idx[i] = flat[off : off+len(n) : off+len(n)]
		for k, id := range n {
			j, _ := slices.BinarySearch(ids, id)
			idx[i][k] = int32(j)
		}
		off += len(n)
	}
	return idx, len(ids)
}

// endRef is a way's end: its node's number (nodeIndex), the road and the
// point index (0 or last).
type endRef struct{ node, road, idx int32 }

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
// the face polygons. A segment is named by the number of its end point
// among the points of all roads (points are numbered road after road; the
// first point of a road ends no segment). The grid is sparse: the cells
// that hold segments, numbered row by row over the network's box and
// sorted, each with its run of segment numbers.
type segIndex struct {
	cell       float64
	roads      []Road
	ptStart    []int    // road -> number of its first point; len roads+1
	road       []int32  // segment -> its road
	minX, minY int32    // the box's first cell
	spanX      int64    // cells per row
	spanY      int64    // rows
	cells      []uint64 // numbers of the cells that hold segments, sorted
	start      []uint32 // cell -> first entry of ids; len cells+1
	ids        []uint32 // segment numbers, increasing within a cell
}

// segCell is the grid's cell size in degrees (about 200 m).
const segCell = 0.002

// newSegIndex indexes the segments of every road. Every (cell, segment)
// pair is one uint64, the cell's number above the segment's, sorted once.
func newSegIndex(roads []Road) *segIndex {
	x := &segIndex{cell: segCell, roads: roads, ptStart: make([]int, len(roads)+1)}
	for ri := range roads {
		x.ptStart[ri+1] = x.ptStart[ri] + len(roads[ri].Points)
	}
	n := x.ptStart[len(roads)]
	if n >= math.MaxUint32 {
		panic("zip4: more than 2^32 street points")
	}
	x.road = make([]int32, n)
	count := 0
	box := orb.Bound{Min: orb.Point{math.Inf(1), math.Inf(1)}, Max: orb.Point{math.Inf(-1), math.Inf(-1)}}
	for ri := range roads {
		pts := roads[ri].Points
		for i := 1; i < len(pts); i++ {
			x.eachCell(pts[i-1], pts[i], func(int32, int32) { count++ })
			box = box.Extend(pts[i-1]).Extend(pts[i])
		}
	}
	if count == 0 {
		x.start = []uint32{0}
		return x
	}
	x0, y0 := x.cellOf(box.Min[0], box.Min[1])
	x1, y1 := x.cellOf(box.Max[0], box.Max[1])
	x.minX, x.minY = x0, y0
	x.spanX, x.spanY = int64(x1)-int64(x0)+1, int64(y1)-int64(y0)+1
	idBits := bits.Len64(uint64(n))
	if bits.Len64(uint64(x.spanX*x.spanY))+idBits > 64 {
		panic("zip4: street network too large for its segment grid")
	}
	keys := make([]uint64, 0, count)
	for ri := range roads {
		pts := roads[ri].Points
		for i := 1; i < len(pts); i++ {
			id := uint32(x.ptStart[ri] + i)
			x.road[id] = int32(ri)
			x.eachCell(pts[i-1], pts[i], func(cx, cy int32) {
				keys = append(keys, x.number(cx, cy)<<idBits|uint64(id))
			})
		}
	}
	slices.Sort(keys)
	x.ids = make([]uint32, len(keys))
	x.start = make([]uint32, 0, len(keys)/2)
	for k, v := range keys {
		x.ids[k] = uint32(v & (1<<idBits - 1))
		if c := v >> idBits; k == 0 || c != x.cells[len(x.cells)-1] {
			x.cells = append(x.cells, c)
			x.start = append(x.start, uint32(k))
		}
	}
	x.start = append(x.start, uint32(len(keys)))
	return x
}

// number returns the number of cell (cx, cy) of the box.
func (x *segIndex) number(cx, cy int32) uint64 {
	return uint64((int64(cy)-int64(x.minY))*x.spanX + int64(cx) - int64(x.minX))
}

// eachCell calls fn with every cell the bounding box of segment a-b
// overlaps.
func (x *segIndex) eachCell(a, b orb.Point, fn func(cx, cy int32)) {
	x0, y0 := x.cellOf(math.Min(a[0], b[0]), math.Min(a[1], b[1]))
	x1, y1 := x.cellOf(math.Max(a[0], b[0]), math.Max(a[1], b[1]))
	for cy := y0; cy <= y1; cy++ {
		for cx := x0; cx <= x1; cx++ {
			fn(cx, cy)
		}
	}
}

func (x *segIndex) cellOf(lon, lat float64) (int32, int32) {
	return int32(math.Floor(lon / x.cell)), int32(math.Floor(lat / x.cell))
}

// points returns segment id's road, the index of its end point in the
// road's points, and its two points.
func (x *segIndex) points(id uint32) (road, i int, a, b orb.Point) {
	road = int(x.road[id])
	i = int(id) - x.ptStart[road]
	pts := x.roads[road].Points
	return road, i, pts[i-1], pts[i]
}

// query calls fn for every segment number listed in the cells overlapping
// b (a segment may come more than once).
func (x *segIndex) query(b orb.Bound, fn func(id uint32)) {
	if len(x.cells) == 0 {
		return
	}
	x0, y0 := x.cellOf(b.Min[0], b.Min[1])
	x1, y1 := x.cellOf(b.Max[0], b.Max[1])
	// Clamp to the box: no cell outside it holds a segment.
	lastX, lastY := int64(x.minX)+x.spanX-1, int64(x.minY)+x.spanY-1
	if int64(x1) < int64(x.minX) || int64(x0) > lastX || int64(y1) < int64(x.minY) || int64(y0) > lastY {
		return
	}
	x0, x1 = int32(max(int64(x0), int64(x.minX))), int32(min(int64(x1), lastX))
	y0, y1 = int32(max(int64(y0), int64(x.minY))), int32(min(int64(y1), lastY))
	for cy := y0; cy <= y1; cy++ {
		// The cells of a row are consecutive numbers: find the first,
		// then walk.
		hi := x.number(x1, cy)
		k, _ := slices.BinarySearch(x.cells, x.number(x0, cy))
		for ; k < len(x.cells) && x.cells[k] <= hi; k++ {
			for _, id := range x.ids[x.start[k]:x.start[k+1]] {
				fn(id)
			}
		}
	}
}
