package geocode

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	"github.com/paulmach/orb"
	"github.com/paulmach/osm"

	"github.com/geosvc/geosvc/geo"
	"github.com/geosvc/geosvc/geo/osmfile"
	"github.com/geosvc/geosvc/geo/roadref"
)

// span is the range [start, end) of an array: node references in
// extract.refs, points in extract.geom, entries of another list.
type span struct{ start, end uint32 }

// empty reports whether the span holds nothing.
func (s span) empty() bool { return s.end <= s.start }

// rawAddr is an address point read from OSM: a node, or a building way
// (its outline kept for reverse geocoding). Strings are ids in
// extract.strs.
type rawAddr struct {
	osmType  byte // 'n' or 'w'
	osmID    int64
	hn       uint32
	street   uint32
	place    uint32 // addr:place, for addresses without a street
	city     uint32
	postcode uint32
	unit     uint32
	pt       orb.Point
	outline  span // node references of a way
	ring     span // its outline's points, or a building's it lies in
}

// rawRoad is a highway way under one of its names (its name or a route
// number). The names of one way share its node references and line.
type rawRoad struct {
	id     int64
	name   uint32 // extract.strs
	county uint32 // tiger:county ("New Castle, DE"), extract.strs
	alias  bool   // name is a route number of a road with a name
	byRef  bool   // name is the route number of a road without a name
	refs   span
	zip    span // tiger:zip_left/right and postal_code: extract.zips
	ranges span // TIGER house-number ranges: extract.tiger
	line   span
	names  span // its name:xx tags (extract.names), of its name only
}

// tigerRange is a tiger:from/to address range on one side of a road.
type tigerRange struct {
	from, to int
	zip      string
}

// rawInterp is an addr:interpolation way.
type rawInterp struct {
	id          int64
	kind        string // odd, even, all
	street      uint32
	first, last osm.NodeID
	refs        span
	line        span
}

// rawPlace is a place node.
type rawPlace struct {
	id         int64
	name       string
	typ        string
	population int
	pt         orb.Point
	isoState   string // ISO3166-2 of state nodes
	// typeBit and radius are its type's placeTypeBit and placeRadius.
	typeBit uint16
	radius  float64
	names   span // its name:xx tags (extract.names)
}

// rawPOI is a named amenity, shop, tourism or office.
type rawPOI struct {
	osmType  byte
	osmID    int64
	name     uint32 // extract.strs
	class    uint32
	street   uint32
	hn       uint32
	city     uint32
	postcode uint32
	pt       orb.Point
	refs     span // node references of a way
	names    span // its name:xx tags (extract.names)
}

// extract is what Build reads from the OSM file, in flat arrays: the
// node references of the ways it keeps back to back (refs), their
// geometry likewise (geom), the tag values interned (strs).
type extract struct {
	addrs   []rawAddr
	roads   []rawRoad
	interps []rawInterp
	places  []rawPlace
	pois    []rawPOI
	// buildings are the outlines of buildings without an address: an
	// address node inside one takes its outline.
	buildings []span
	strs      strTable
	// names are the name:xx tags of roads, places and POIs: language
	// tag and name, string ids of strs.
	names []langName
	zips  []uint32
	tiger []tigerRange
	// refs are the node references of the ways kept, until resolve
	// turns them into nodeRefs: the index of each node in need (one
	// number per node of the extract).
	refs     []osm.NodeID
	nodeRefs []uint32
	// need are the nodes the ways reference, sorted, and coords their
	// coordinates (has: whether the extract has the node), until the
	// ways are resolved into geom.
	need   []osm.NodeID
	coords []orb.Point
	has    []uint64
	nodes  int // len(need), once need is gone
	geom   []orb.Point
	// nodeAddr are the address nodes (that interpolation ways end at)
	// with their index in addrs, sorted by node.
	nodeAddr []nodeAddr
}

// nodeAddr is an address node and its index in extract.addrs.
type nodeAddr struct {
	node osm.NodeID
	addr int
}

// str returns string id of the extract's table.
func (x *extract) str(id uint32) string { return x.strs.get(id) }

// addrOfNode returns the index in addrs of the address node id.
func (x *extract) addrOfNode(id osm.NodeID) (int, bool) {
	i, ok := slices.BinarySearchFunc(x.nodeAddr, id, func(a nodeAddr, id osm.NodeID) int { return cmp.Compare(a.node, id) })
	if !ok {
		return 0, false
	}
	return x.nodeAddr[i].addr, true
}

// placeTypes are the place values indexed, by rank (lower: bigger).
var placeTypes = map[string]uint8{
	"country": 1, "state": 2, "county": 3, "city": 4, "town": 5, "village": 6,
	"suburb": 7, "hamlet": 8, "neighbourhood": 9, "locality": 10, "quarter": 8, "isolated_dwelling": 11,
}

// skipHighway are highway values that are no street.
var skipHighway = map[string]bool{
	"bus_stop": true, "platform": true, "proposed": true, "construction": true, "abandoned": true,
	"razed": true, "elevator": true, "street_lamp": true, "crossing": true, "traffic_signals": true,
	"stop": true, "give_way": true, "turning_circle": true, "milestone": true, "emergency_access_point": true,
}

var poiKeys = []string{"amenity", "shop", "tourism", "office", "leisure", "historic"}

func poiClass(tags osm.Tags) string {
	for _, k := range poiKeys {
		if v := tags.Find(k); v != "" {
			return k + "=" + v
		}
	}
	return ""
}

// readOSM reads the extract in two passes: ways (what they are, which
// nodes they need), then nodes (tagged ones, and the coordinates of the
// ways' nodes, kept in arrays sorted by node id).
func readOSM(path string) (*extract, error) {
	f, err := osmfile.Open(path)
	if err != nil {
		return nil, err
	}
	x := &extract{strs: newStrTable()}
	_, err = f.Scan(osmfile.Filter{SkipNodes: true, SkipRelations: true, Way: wantWay}, func(o osm.Object) error {
		if w, ok := o.(*osm.Way); ok {
			x.way(w)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	need := slices.Clone(x.refs)
	slices.Sort(need)
	x.need = slices.Clone(slices.Compact(need))
	x.coords = make([]orb.Point, len(x.need))
	x.has = make([]uint64, (len(x.need)+63)/64)
	_, err = f.Scan(osmfile.Filter{SkipWays: true, SkipRelations: true, Node: func(n *osm.Node) bool {
		_, need := slices.BinarySearch(x.need, n.ID)
		return need || wantNode(n)
	}}, func(o osm.Object) error {
		n, ok := o.(*osm.Node)
		if !ok {
			return nil
		}
		pt := orb.Point{n.Lon, n.Lat}
		if i, ok := slices.BinarySearch(x.need, n.ID); ok {
			x.coords[i] = pt
			x.has[i/64] |= 1 << (i % 64)
		}
		x.node(n, pt)
		return nil
	})
	if err != nil {
		return nil, err
	}
	slices.SortStableFunc(x.nodeAddr, func(a, b nodeAddr) int { return cmp.Compare(a.node, b.node) })
	x.resolve()
	return x, nil
}

func wantWay(w *osm.Way) bool {
	t := w.Tags
	if t.Find("building") != "" && len(w.Nodes) >= 4 {
		return true
	}
	if t.Find("addr:housenumber") != "" || t.Find("addr:interpolation") != "" {
		return true
	}
	if h := t.Find("highway"); h != "" && (t.Find("name") != "" || t.Find("ref") != "") && !skipHighway[h] {
		return true
	}
	return t.Find("name") != "" && poiClass(t) != ""
}

func wantNode(n *osm.Node) bool {
	t := n.Tags
	if len(t) == 0 {
		return false
	}
	if t.Find("addr:housenumber") != "" {
		return true
	}
	if t.Find("place") != "" && t.Find("name") != "" {
		return true
	}
	return t.Find("name") != "" && poiClass(t) != ""
}

// way keeps what a way is (an address, a POI, an interpolation, a
// building, roads under each of its names) and appends its node
// references, when it is kept.
func (x *extract) way(w *osm.Way) {
	t := w.Tags
	s := x.strs.intern
	refs := span{uint32(len(x.refs)), uint32(len(x.refs) + len(w.Nodes))}
	used := false
	if hn := t.Find("addr:housenumber"); hn != "" && (t.Find("addr:street") != "" || t.Find("addr:place") != "") {
		x.addrs = append(x.addrs, rawAddr{osmType: 'w', osmID: int64(w.ID), hn: s(hn), street: s(t.Find("addr:street")),
			place: s(t.Find("addr:place")), city: s(t.Find("addr:city")), postcode: s(t.Find("addr:postcode")),
			unit: s(t.Find("addr:unit")), outline: refs})
		used = true
	} else if name := t.Find("name"); name != "" && poiClass(t) != "" {
		x.pois = append(x.pois, rawPOI{osmType: 'w', osmID: int64(w.ID), name: s(name), class: s(poiClass(t)),
			street: s(t.Find("addr:street")), hn: s(t.Find("addr:housenumber")), city: s(t.Find("addr:city")),
			postcode: s(t.Find("addr:postcode")), refs: refs, names: x.langNames(t)})
		used = true
	}
	n := len(w.Nodes)
	if kind := t.Find("addr:interpolation"); kind != "" && n >= 2 {
		x.interps = append(x.interps, rawInterp{id: int64(w.ID), kind: kind, street: s(t.Find("addr:street")),
			first: w.Nodes[0].ID, last: w.Nodes[n-1].ID, refs: refs})
		used = true
	}
	if !used && t.Find("building") != "" && n >= 4 && w.Nodes[0].ID == w.Nodes[n-1].ID {
		x.buildings = append(x.buildings, refs)
		used = true
	}
	if h := t.Find("highway"); h != "" && !skipHighway[h] && n >= 2 {
		// A road is found by its name and by each of its route numbers
		// ("I 95;US 13": "I-95", "US-13"); a road with only a ref is
		// named by it. The refs of a named road are aliases, for
		// searching: reverse geocoding names the road.
		var names []string
		if !strings.HasSuffix(h, "_link") { // a ramp's ref is its exit number
			names = roadref.Numbers(t.Find("ref"))
		}
		byRef := len(names) > 0
		alias := make([]bool, len(names))
		if name := t.Find("name"); name != "" {
			names = append([]string{name}, names...)
			alias = append([]bool{false}, alias...)
			for i := 1; i < len(alias); i++ {
				alias[i] = true
			}
			byRef = false
		}
		var zip span
		if len(names) > 0 {
			zip.start = uint32(len(x.zips))
			for _, k := range []string{"tiger:zip_left", "tiger:zip_right", "postal_code", "addr:postcode"} {
				for _, z := range strings.FieldsFunc(t.Find(k), func(r rune) bool { return r == ';' || r == ':' }) {
					if z = strings.TrimSpace(z); z != "" {
						x.zips = append(x.zips, s(z))
					}
				}
			}
			zip.end = uint32(len(x.zips))
		}
		for i, name := range names {
			r := rawRoad{id: int64(w.ID), name: s(name), alias: alias[i], byRef: byRef, refs: refs, county: s(t.Find("tiger:county")), zip: zip}
			if i == 0 && !alias[i] && !byRef {
				r.names = x.langNames(t) // the name:xx of its name, not of its refs
			}
			if !r.alias {
				r.ranges.start = uint32(len(x.tiger))
				x.tiger = append(x.tiger, tigerRanges(t)...)
				r.ranges.end = uint32(len(x.tiger))
			}
			x.roads = append(x.roads, r)
			used = true
		}
	}
	if used {
		for _, nd := range w.Nodes {
			x.refs = append(x.refs, nd.ID)
		}
	}
}

// tigerRanges reads TIGER address ranges (tiger:from_address_left, ...)
// when an extract carries them.
func tigerRanges(t osm.Tags) []tigerRange {
	var out []tigerRange
	for _, side := range []string{"left", "right"} {
		from, err1 := strconv.Atoi(t.Find("tiger:from_address_" + side))
		to, err2 := strconv.Atoi(t.Find("tiger:to_address_" + side))
		if err1 == nil && err2 == nil {
			out = append(out, tigerRange{from: from, to: to, zip: t.Find("tiger:zip_" + side)})
		}
	}
	return out
}

func (x *extract) node(n *osm.Node, pt orb.Point) {
	t := n.Tags
	if len(t) == 0 {
		return
	}
	s := x.strs.intern
	if hn := t.Find("addr:housenumber"); hn != "" {
		if t.Find("addr:street") != "" || t.Find("addr:place") != "" {
			x.addrs = append(x.addrs, rawAddr{osmType: 'n', osmID: int64(n.ID), hn: s(hn), street: s(t.Find("addr:street")),
				place: s(t.Find("addr:place")), city: s(t.Find("addr:city")), postcode: s(t.Find("addr:postcode")),
				unit: s(t.Find("addr:unit")), pt: pt})
			x.nodeAddr = append(x.nodeAddr, nodeAddr{n.ID, len(x.addrs) - 1})
			if name := t.Find("name"); name == "" || poiClass(t) == "" {
				return
			}
		}
	}
	name := t.Find("name")
	if name == "" {
		return
	}
	if p := t.Find("place"); p != "" {
		if _, ok := placeTypes[p]; ok {
			pop, _ := strconv.Atoi(strings.ReplaceAll(strings.ReplaceAll(t.Find("population"), ",", ""), " ", ""))
			x.places = append(x.places, rawPlace{id: int64(n.ID), name: strings.Clone(name), typ: strings.Clone(p), population: pop, pt: pt,
				isoState: strings.Clone(t.Find("ISO3166-2")), typeBit: placeTypeBit[p], radius: placeRadius[p], names: x.langNames(t)})
			return
		}
	}
	if c := poiClass(t); c != "" {
		x.pois = append(x.pois, rawPOI{osmType: 'n', osmID: int64(n.ID), name: s(name), class: s(c),
			street: s(t.Find("addr:street")), hn: s(t.Find("addr:housenumber")), city: s(t.Find("addr:city")),
			postcode: s(t.Find("addr:postcode")), pt: pt, names: x.langNames(t)})
	}
}

// resolve replaces every node reference by the node's index in need,
// turns them into geometry (x.geom), dropping what lacks nodes, and lets
// the coordinates go.
func (x *extract) resolve() {
	x.nodeRefs = make([]uint32, len(x.refs))
	for i, id := range x.refs {
		j, _ := slices.BinarySearch(x.need, id)
		x.nodeRefs[i] = uint32(j)
	}
	x.nodes = len(x.need)
	x.refs, x.need = nil, nil
	x.geom = make([]orb.Point, 0, x.geomSize())
	// line appends the points of the nodes the extract has to geom.
	line := func(refs span) span {
		out := span{uint32(len(x.geom)), 0}
		for _, j := range x.nodeRefs[refs.start:refs.end] {
			if x.has[j/64]&(1<<(j%64)) != 0 {
				x.geom = append(x.geom, x.coords[j])
			}
		}
		out.end = uint32(len(x.geom))
		return out
	}
	// tmp holds outlines needed only here (POIs, buildings without an
	// address).
	var tmp []orb.Point
	tmpLine := func(refs span) orb.LineString {
		geom := x.geom
		x.geom = tmp
		sp := line(refs)
		tmp, x.geom = x.geom, geom
		return orb.LineString(tmp[sp.start:sp.end:sp.end])
	}
	addrs := x.addrs[:0]
	for i, a := range x.addrs {
		if a.osmType == 'w' {
			a.ring = line(a.outline)
			if a.ring.empty() {
				continue
			}
			a.pt = rooftop(x.geom[a.ring.start:a.ring.end])
		}
		if i != len(addrs) {
			x.moveNodeAddr(a, i, len(addrs))
		}
		addrs = append(addrs, a)
	}
	x.addrs = addrs
	x.attachBuildings(tmpLine)
	tmp = nil
	roads := x.roads[:0]
	var lastRefs, lastLine span
	for i, r := range x.roads {
		if i > 0 && r.refs == lastRefs {
			r.line = lastLine // another name of the same way
		} else {
			r.line = line(r.refs)
			if r.line.end-r.line.start < 2 {
				x.geom = x.geom[:r.line.start]
			}
			lastRefs, lastLine = r.refs, r.line
		}
		if r.line.end-r.line.start >= 2 {
			roads = append(roads, r)
		}
	}
	x.roads = roads
	interps := x.interps[:0]
	for _, it := range x.interps {
		if it.line = line(it.refs); it.line.end-it.line.start >= 2 {
			interps = append(interps, it)
		} else {
			x.geom = x.geom[:it.line.start]
		}
	}
	x.interps = interps
	pois := x.pois[:0]
	for _, p := range x.pois {
		if !p.refs.empty() {
			ls := tmpLine(p.refs)
			tmp = tmp[:0]
			if len(ls) == 0 {
				continue
			}
			p.pt = rooftop(ls)
		}
		pois = append(pois, p)
	}
	x.pois = pois
	x.coords, x.has = nil, nil
}

// geomSize returns how many points the lines kept in geom hold: those
// of the nodes the extract has, of addressed buildings, roads (one line
// per way) and interpolations.
func (x *extract) geomSize() int {
	n := 0
	count := func(refs span) {
		for _, j := range x.nodeRefs[refs.start:refs.end] {
			if x.has[j/64]&(1<<(j%64)) != 0 {
				n++
			}
		}
	}
	for _, a := range x.addrs {
		if a.osmType == 'w' {
			count(a.outline)
		}
	}
	for i, r := range x.roads {
		if i == 0 || r.refs != x.roads[i-1].refs {
			count(r.refs)
		}
	}
	for _, it := range x.interps {
		count(it.refs)
	}
	return n
}

// moveNodeAddr notes that address i of an address node is now address
// j (addresses without geometry were dropped before it).
func (x *extract) moveNodeAddr(a rawAddr, i, j int) {
	if a.osmType != 'n' {
		return
	}
	if k, ok := slices.BinarySearchFunc(x.nodeAddr, a.osmID, func(n nodeAddr, id int64) int { return cmp.Compare(int64(n.node), id) }); ok {
		for ; k < len(x.nodeAddr) && int64(x.nodeAddr[k].node) == a.osmID; k++ {
			if x.nodeAddr[k].addr == i {
				x.nodeAddr[k].addr = j
			}
		}
	}
}

// rooftop returns the location of a building or other closed way: its
// pole of inaccessibility (the point inside farthest from its walls, to
// half a metre), where a pin on it belongs; for an open way, the mean of
// its points.
func rooftop(ls orb.LineString) orb.Point {
	if len(ls) >= 4 && ls[0] == ls[len(ls)-1] {
		if p, d := geo.LabelPoint(orb.Polygon{orb.Ring(ls)}, 0.5); d > 0 {
			return p
		}
	}
	return centroid(ls)
}

// centroid returns the mean of a way's distinct points (a closed way's
// repeated first point counted once).
func centroid(ls orb.LineString) orb.Point {
	n := len(ls)
	if n > 1 && ls[0] == ls[n-1] {
		n--
	}
	var sx, sy float64
	for _, p := range ls[:n] {
		sx += p[0]
		sy += p[1]
	}
	return orb.Point{sx / float64(n), sy / float64(n)}
}

// attachBuildings gives every address node that lies inside a building
// without an address (or on its outline, as an entrance does) that
// building's outline, so that reverse geocoding finds the address from
// anywhere in the building, as for addressed buildings. line resolves
// node references into points that stay valid until the next call.
func (x *extract) attachBuildings(line func(span) orb.LineString) {
	rings := make([]orb.LineString, len(x.buildings))
	for i, refs := range x.buildings {
		rings[i] = line(refs)
	}
	g := buildGrid(0.002, func(yield func(orb.Bound, uint32)) {
		for i, r := range rings {
			if len(r) >= 4 {
				yield(r.Bound(), uint32(i))
			}
		}
	})
	count := make([]int32, len(rings)) // addresses per building
	inside := make([]int32, len(x.addrs))
	for i := range x.addrs {
		inside[i] = -1
		a := &x.addrs[i]
		if a.osmType != 'n' {
			continue
		}
		g.near(a.pt, 1, func(id uint32) {
			r := rings[id]
			if inside[i] < 0 && padBound(r.Bound(), onWall).Contains(a.pt) && ringDist(a.pt, r) <= onWall {
				inside[i] = int32(id)
				count[id]++
			}
		})
	}
	for i, b := range inside {
		if b >= 0 && count[b] == 1 { // one address per building only
			start := uint32(len(x.geom))
			x.geom = append(x.geom, rings[b]...)
			x.addrs[i].ring = span{start, uint32(len(x.geom))}
		}
	}
	x.buildings = nil
}
