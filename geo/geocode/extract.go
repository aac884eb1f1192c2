package geocode

import (
	"strconv"
	"strings"

	"github.com/paulmach/orb"
	"github.com/paulmach/osm"

	"github.com/geosvc/geosvc/geo"
	"github.com/geosvc/geosvc/geo/osmfile"
	"github.com/geosvc/geosvc/geo/roadref"
)

// rawAddr is an address point read from OSM: a node, or a building way
// (its outline kept for reverse geocoding).
type rawAddr struct {
	osmType  byte // 'n' or 'w'
	osmID    int64
	hn       string
	street   string
	place    string // addr:place, for addresses without a street
	city     string
	postcode string
	unit     string
	pt       orb.Point
	outline  []osm.NodeID
	ring     orb.Ring
}

// rawRoad is a highway way under one of its names (its name or a route
// number).
type rawRoad struct {
	id     int64
	name   string
	alias  bool // name is a route number of a road with a name
	byRef  bool // name is the route number of a road without a name
	nodes  []osm.NodeID
	zip    []string // tiger:zip_left/right and postal_code
	county string   // tiger:county ("New Castle, DE")
	line   orb.LineString
	// TIGER house-number ranges, when the extract has them.
	ranges []tigerRange
}

// tigerRange is a tiger:from/to address range on one side of a road.
type tigerRange struct {
	from, to int
	zip      string
}

// rawInterp is an addr:interpolation way.
type rawInterp struct {
	id     int64
	kind   string // odd, even, all
	street string
	nodes  []osm.NodeID
	line   orb.LineString
}

// rawPlace is a place node.
type rawPlace struct {
	id         int64
	name       string
	typ        string
	population int
	pt         orb.Point
	isoState   string // ISO3166-2 of state nodes
}

// rawPOI is a named amenity, shop, tourism or office.
type rawPOI struct {
	osmType  byte
	osmID    int64
	name     string
	class    string // "amenity=library"
	street   string
	hn       string
	city     string
	postcode string
	pt       orb.Point
	nodes    []osm.NodeID
}

// extract is everything Build reads from the OSM file.
type extract struct {
	addrs   []rawAddr
	roads   []rawRoad
	interps []rawInterp
	places  []rawPlace
	pois    []rawPOI
	// buildings are the outlines of buildings without an address: an
	// address node inside one takes its outline.
	buildings [][]osm.NodeID
	coords    map[osm.NodeID]orb.Point
	// nodeAddr maps the address nodes (that interpolation ways end at) to
	// their index in addrs.
	nodeAddr map[osm.NodeID]int
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
// ways' nodes).
func readOSM(path string) (*extract, error) {
	f, err := osmfile.Open(path)
	if err != nil {
		return nil, err
	}
	x := &extract{coords: map[osm.NodeID]orb.Point{}, nodeAddr: map[osm.NodeID]int{}}
	need := map[osm.NodeID]bool{}
	_, err = f.Scan(osmfile.Filter{SkipNodes: true, SkipRelations: true, Way: wantWay}, func(o osm.Object) error {
		w, ok := o.(*osm.Way)
		if !ok {
			return nil
		}
		x.way(w, need)
		return nil
	})
	if err != nil {
		return nil, err
	}
	_, err = f.Scan(osmfile.Filter{SkipWays: true, SkipRelations: true, Node: func(n *osm.Node) bool {
		return need[n.ID] || wantNode(n)
	}}, func(o osm.Object) error {
		n, ok := o.(*osm.Node)
		if !ok {
			return nil
		}
		pt := orb.Point{n.Lon, n.Lat}
		if need[n.ID] {
			x.coords[n.ID] = pt
		}
		x.node(n, pt)
		return nil
	})
	if err != nil {
		return nil, err
	}
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

func nodeIDs(w *osm.Way) []osm.NodeID {
	ids := make([]osm.NodeID, len(w.Nodes))
	for i, n := range w.Nodes {
		ids[i] = n.ID
	}
	return ids
}

func (x *extract) way(w *osm.Way, need map[osm.NodeID]bool) {
	t := w.Tags
	ids := nodeIDs(w)
	used := false
	if hn := t.Find("addr:housenumber"); hn != "" && (t.Find("addr:street") != "" || t.Find("addr:place") != "") {
		x.addrs = append(x.addrs, rawAddr{osmType: 'w', osmID: int64(w.ID), hn: hn, street: t.Find("addr:street"),
			place: t.Find("addr:place"), city: t.Find("addr:city"), postcode: t.Find("addr:postcode"),
			unit: t.Find("addr:unit"), outline: ids})
		used = true
	} else if name := t.Find("name"); name != "" && poiClass(t) != "" {
		x.pois = append(x.pois, rawPOI{osmType: 'w', osmID: int64(w.ID), name: name, class: poiClass(t),
			street: t.Find("addr:street"), hn: t.Find("addr:housenumber"), city: t.Find("addr:city"),
			postcode: t.Find("addr:postcode"), nodes: ids})
		used = true
	}
	if kind := t.Find("addr:interpolation"); kind != "" && len(ids) >= 2 {
		x.interps = append(x.interps, rawInterp{id: int64(w.ID), kind: kind, street: t.Find("addr:street"), nodes: ids})
		used = true
	}
	if !used && t.Find("building") != "" && len(ids) >= 4 && ids[0] == ids[len(ids)-1] {
		x.buildings = append(x.buildings, ids)
		used = true
	}
	if h := t.Find("highway"); h != "" && !skipHighway[h] && len(ids) >= 2 {
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
		for i, name := range names {
			r := rawRoad{id: int64(w.ID), name: name, alias: alias[i], byRef: byRef, nodes: ids, county: t.Find("tiger:county")}
			for _, k := range []string{"tiger:zip_left", "tiger:zip_right", "postal_code", "addr:postcode"} {
				for _, z := range strings.FieldsFunc(t.Find(k), func(r rune) bool { return r == ';' || r == ':' }) {
					if z = strings.TrimSpace(z); z != "" {
						r.zip = append(r.zip, z)
					}
				}
			}
			if !r.alias {
				r.ranges = tigerRanges(t)
			}
			x.roads = append(x.roads, r)
			used = true
		}
	}
	if used {
		for _, id := range ids {
			need[id] = true
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
	if hn := t.Find("addr:housenumber"); hn != "" {
		if t.Find("addr:street") != "" || t.Find("addr:place") != "" {
			x.addrs = append(x.addrs, rawAddr{osmType: 'n', osmID: int64(n.ID), hn: hn, street: t.Find("addr:street"),
				place: t.Find("addr:place"), city: t.Find("addr:city"), postcode: t.Find("addr:postcode"),
				unit: t.Find("addr:unit"), pt: pt})
			x.nodeAddr[n.ID] = len(x.addrs) - 1
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
			x.places = append(x.places, rawPlace{id: int64(n.ID), name: name, typ: p, population: pop, pt: pt,
				isoState: t.Find("ISO3166-2")})
			return
		}
	}
	if c := poiClass(t); c != "" {
		x.pois = append(x.pois, rawPOI{osmType: 'n', osmID: int64(n.ID), name: name, class: c,
			street: t.Find("addr:street"), hn: t.Find("addr:housenumber"), city: t.Find("addr:city"),
			postcode: t.Find("addr:postcode"), pt: pt})
	}
}

// resolve turns node lists into geometry, dropping what lacks nodes.
func (x *extract) resolve() {
	line := func(ids []osm.NodeID) orb.LineString {
		ls := make(orb.LineString, 0, len(ids))
		for _, id := range ids {
			if p, ok := x.coords[id]; ok {
				ls = append(ls, p)
			}
		}
		return ls
	}
	addrs := x.addrs[:0]
	for _, a := range x.addrs {
		if a.osmType == 'w' {
			ls := line(a.outline)
			if len(ls) == 0 {
				continue
			}
			a.ring = orb.Ring(ls)
			a.pt = rooftop(ls)
		}
		addrs = append(addrs, a)
	}
	x.addrs = addrs
	x.attachBuildings(line)
	roads := x.roads[:0]
	for _, r := range x.roads {
		if r.line = line(r.nodes); len(r.line) >= 2 {
			roads = append(roads, r)
		}
	}
	x.roads = roads
	interps := x.interps[:0]
	for _, it := range x.interps {
		if it.line = line(it.nodes); len(it.line) >= 2 {
			interps = append(interps, it)
		}
	}
	x.interps = interps
	pois := x.pois[:0]
	for _, p := range x.pois {
		if p.nodes != nil {
			ls := line(p.nodes)
			if len(ls) == 0 {
				continue
			}
			p.pt = rooftop(ls)
		}
		pois = append(pois, p)
	}
	x.pois = pois
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
// anywhere in the building, as for addressed buildings.
func (x *extract) attachBuildings(line func([]osm.NodeID) orb.LineString) {
	g := newGrid(0.002)
	rings := make([]orb.LineString, len(x.buildings))
	for i, ids := range x.buildings {
		rings[i] = line(ids)
		if len(rings[i]) >= 4 {
			g.addBound(rings[i].Bound(), uint32(i))
		}
	}
	count := map[int]int{} // addresses per building
	inside := make([]int, len(x.addrs))
	for i := range x.addrs {
		inside[i] = -1
		a := &x.addrs[i]
		if a.osmType != 'n' {
			continue
		}
		g.near(a.pt, 1, func(id uint32) {
			r := rings[id]
			if inside[i] < 0 && padBound(r.Bound(), onWall).Contains(a.pt) && ringDist(a.pt, r) <= onWall {
				inside[i] = int(id)
				count[int(id)]++
			}
		})
	}
	for i, b := range inside {
		if b >= 0 && count[b] == 1 { // one address per building only
			x.addrs[i].ring = orb.Ring(rings[b])
		}
	}
	x.buildings = nil
}
