package mapdata

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/paulmach/orb"
	"github.com/paulmach/orb/planar"
	"github.com/paulmach/osm"

	"github.com/geosvc/geosvc/geo"
	"github.com/geosvc/geosvc/geo/osmarea"
	"github.com/geosvc/geosvc/geo/osmfile"
)

// BuildOptions configures Build.
type BuildOptions struct {
	// OSMPath is the extract to read.
	OSMPath string
	// Out is the bundle directory FileName is written into; "" writes
	// nothing (tests).
	Out string
}

// Report is what Build did.
type Report struct {
	// Stats are the layer's counts.
	Stats Stats
	// Coast is the sea's assembly.
	Coast CoastReport
	// Relations counts the multipolygon relations assembled; Broken those
	// that could not be (cut by the extract).
	Relations, Broken int
	// Bound is the extract's box the layer covers.
	Bound orb.Bound
	// Size is the file's size in bytes.
	Size int64
	// Sea is the assembled sea, before simplification (for checks).
	Sea []orb.Polygon
	// Took is the build's wall time.
	Took time.Duration
}

// String is the report for `geosvc build`.
func (r *Report) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "map layer: %d KB in %v; %d places, %d points in %d bands (features per band %v)\n",
		r.Size>>10, r.Took.Round(time.Millisecond), r.Stats.Places, r.Stats.Points, numBands, r.Stats.BandFeatures)
	fmt.Fprintf(&b, "  areas:")
	for c := Land; c < Railway; c++ {
		fmt.Fprintf(&b, " %s %d", c, r.Stats.Areas[c])
	}
	fmt.Fprintf(&b, "; lines:")
	for c := Railway; int(c) < numClasses; c++ {
		fmt.Fprintf(&b, " %s %d", c, r.Stats.Lines[c])
	}
	fmt.Fprintf(&b, "\n  multipolygons %d assembled, %d cut by the extract; sea: %d coastline ways (%d from the world base layer where the extract cuts the coast) in %d chains, %d gaps closed, %d ends extended to the box, %d islands, %d water polygons",
		r.Relations, r.Broken, r.Coast.Ways, r.Coast.WorldWays, r.Coast.Chains, r.Coast.GapsClosed, r.Coast.EndsExtended, r.Coast.Islands, r.Coast.SeaPolygons)
	return b.String()
}

// Build reads the map features of the extract at opts.OSMPath (two
// passes: ways and relations, then nodes), assembles them and writes the
// layer into opts.Out.
func Build(opts BuildOptions) (*Layer, *Report, error) {
	start := time.Now()
	f, err := osmfile.Open(opts.OSMPath)
	if err != nil {
		return nil, nil, fmt.Errorf("mapdata: %w", err)
	}
	rd, err := read(f)
	if err != nil {
		return nil, nil, fmt.Errorf("mapdata: %w", err)
	}
	l, rep, err := rd.layer()
	if err != nil {
		return nil, nil, fmt.Errorf("mapdata: %w", err)
	}
	if opts.Out != "" {
		if err := l.Write(opts.Out); err != nil {
			return nil, nil, err
		}
		fi, err := os.Stat(filepath.Join(opts.Out, FileName))
		if err != nil {
			return nil, nil, err
		}
		rep.Size = fi.Size()
	} else {
		b, err := l.Bytes()
		if err != nil {
			return nil, nil, err
		}
		rep.Size = int64(len(b))
	}
	rep.Took = time.Since(start)
	return l, rep, nil
}

// wayRef is a way the layer uses: an area, a line or coastline.
type wayRef struct {
	id    int64
	class Class
	place *Place // a closed way's place label
}

// reader is what the passes collected.
type reader struct {
	ways     osmfile.WayNodes // the node lists of the ways used, by id
	areaWays []wayRef         // closed ways of an area class (or a place)
	lineWays []wayRef         // railways
	coast    []int64          // coastline ways
	rels     []*osm.Relation
	admin    map[int64]Class // way -> Border/Province
	// coords are the positions of the ways' nodes.
	coords *osmfile.NodeCoords
	places []Place
	header osmfile.Header
}

// wantRelation selects multipolygons of an area class and admin
// boundaries of level 2 and 4. It runs concurrently.
func wantRelation(r *osm.Relation) bool {
	switch r.Tags.Find("type") {
	case "multipolygon":
		_, ok := areaClass(r.Tags)
		if !ok {
			_, ok = placeOf(r.Tags)
		}
		return ok
	case "boundary":
		_, ok := adminLineClass(r.Tags)
		if !ok {
			_, ok = areaClass(r.Tags) // boundary=national_park
		}
		return ok
	}
	return false
}

// wantWay selects the ways the layer draws by their own tags: coastline,
// railways, and closed ways of an area class or with a place. It runs
// concurrently.
func wantWay(w *osm.Way) bool {
	if len(w.Nodes) < 2 {
		return false
	}
	if w.Tags.Find("natural") == "coastline" || railwayLine(w.Tags) {
		return true
	}
	if len(w.Nodes) < 4 || w.Nodes[0].ID != w.Nodes[len(w.Nodes)-1].ID || w.Tags.Find("area") == "no" {
		return false
	}
	if _, ok := areaClass(w.Tags); ok {
		return true
	}
	_, ok := placeOf(w.Tags)
	return ok
}

// read reads f in three passes, each keeping only what the layer uses:
// the relations (multipolygons, boundaries), then the ways they use and
// the ways the layer draws, then those ways' nodes and the place nodes.
// An XML file, where every pass decompresses and parses the whole file
// again, is read in two: ways and relations together (keeping every way's
// node list until the relations are known), then the nodes.
func read(f *osmfile.File) (*reader, error) {
	rd := &reader{admin: map[int64]Class{}}
	var members []int64 // way members of the relations, sorted once known
	onRelation := func(r *osm.Relation) {
		rd.rels = append(rd.rels, r)
		lc, isAdmin := adminLineClass(r.Tags)
		for _, m := range r.Members {
			if m.Type != osm.TypeWay {
				continue
			}
			members = append(members, m.Ref)
			if isAdmin {
				if c, ok := rd.admin[m.Ref]; !ok || lc < c {
					rd.admin[m.Ref] = lc
				}
			}
		}
	}
	isMember := func(id int64) bool { _, ok := slices.BinarySearch(members, id); return ok }
	onWay := func(w *osm.Way) {
		id := int64(w.ID)
		rd.ways.Add(id, w.Nodes)
		if !wantWay(w) {
			return // a relation's member only
		}
		if w.Tags.Find("natural") == "coastline" {
			rd.coast = append(rd.coast, id)
		}
		if railwayLine(w.Tags) {
			rd.lineWays = append(rd.lineWays, wayRef{id: id, class: Railway})
		}
		n := w.Nodes
		if len(n) >= 4 && n[0].ID == n[len(n)-1].ID && w.Tags.Find("area") != "no" {
			c, isArea := areaClass(w.Tags)
			ref := wayRef{id: id, class: c}
			if p, isPlace := placeOf(w.Tags); isPlace {
				ref.place = &p
			}
			if isArea || ref.place != nil {
				if !isArea {
					ref.class = Land // a place label only
				}
				rd.areaWays = append(rd.areaWays, ref)
			}
		}
	}
	var err error
	if f.Format() == osmfile.FormatPBF {
		_, err = f.Scan(osmfile.Filter{SkipNodes: true, SkipWays: true, Relation: wantRelation}, func(o osm.Object) error {
			if r, ok := o.(*osm.Relation); ok {
				onRelation(r)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		slices.Sort(members)
		members = slices.Compact(members)
		_, err = f.Scan(osmfile.Filter{
			SkipNodes: true, SkipRelations: true,
			Way: func(w *osm.Way) bool {
				if len(w.Nodes) >= 2 && isMember(int64(w.ID)) {
					return true
				}
				return wantWay(w)
			},
		}, func(o osm.Object) error {
			if w, ok := o.(*osm.Way); ok {
				onWay(w)
			}
			return nil
		})
	} else {
		_, err = f.Scan(osmfile.Filter{
			SkipNodes: true,
			Way:       func(w *osm.Way) bool { return len(w.Nodes) >= 2 },
			Relation:  wantRelation,
		}, func(o osm.Object) error {
			switch o := o.(type) {
			case *osm.Way:
				onWay(o)
			case *osm.Relation:
				onRelation(o)
			}
			return nil
		})
		if err == nil {
			// Keep the node lists of the members and the ways drawn.
			slices.Sort(members)
			members = slices.Compact(members)
			var drawn []int64
			drawn = append(drawn, rd.coast...)
			for _, w := range rd.lineWays {
				drawn = append(drawn, w.id)
			}
			for _, w := range rd.areaWays {
				drawn = append(drawn, w.id)
			}
			slices.Sort(drawn)
			rd.ways.Keep(func(id int64) bool {
				_, d := slices.BinarySearch(drawn, id)
				return d || isMember(id)
			})
		}
	}
	if err != nil {
		return nil, err
	}
	members = nil
	rd.ways.Sort()
	// The nodes needed, and the place nodes.
	rd.coords = osmfile.NewNodeCoords(rd.ways.NodeIDs())
	rd.header, err = f.Scan(osmfile.Filter{
		SkipWays: true, SkipRelations: true,
		Node: func(n *osm.Node) bool {
			rd.coords.Record(n)
			return n.Tags.Find("place") != ""
		},
	}, func(o osm.Object) error {
		n, ok := o.(*osm.Node)
		if !ok {
			return nil
		}
		if pl, ok := placeOf(n.Tags); ok {
			pl.Point = geo.Round7Point(orb.Point{n.Lon, n.Lat})
			rd.places = append(rd.places, pl)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return rd, nil
}

// way returns a way's points, nil when a node is missing.
func (rd *reader) way(id int64) *osmarea.Way {
	ns, ok := rd.ways.Nodes(id)
	if !ok {
		return nil
	}
	w := &osmarea.Way{ID: id, Nodes: ns, Points: make([]orb.Point, len(ns))}
	for i, n := range ns {
		p, ok := rd.coords.Point(n)
		if !ok {
			return nil
		}
		w.Points[i] = geo.Round7Point(p)
	}
	return w
}

// layer assembles what was read.
func (rd *reader) layer() (*Layer, *Report, error) {
	rep := &Report{}
	var areas []Area
	var lines []Line
	places := rd.places
	// The extract's box: the file's, else the data's.
	var bound orb.Bound
	if h := rd.header.Bounds; h != nil && h.MaxLon > h.MinLon && h.MaxLat > h.MinLat {
		bound = orb.Bound{Min: orb.Point{h.MinLon, h.MinLat}, Max: orb.Point{h.MaxLon, h.MaxLat}}
	} else {
		first := true
		rd.coords.Each(func(_ int64, p orb.Point) {
			p = geo.Round7Point(p)
			if first {
				bound, first = orb.Bound{Min: p, Max: p}, false
			}
			bound = bound.Extend(p)
		})
		for _, p := range places {
			bound = bound.Extend(p.Point)
		}
	}
	rep.Bound = bound
	areas = append(areas, Area{Class: Land, Polygon: orb.Polygon{boxRing(bound)}})
	nodePlaces := len(places) // the place nodes; area places follow
	addPlace := func(p *Place, mp orb.MultiPolygon) {
		if p == nil || len(mp) == 0 || labelledByNode(*p, mp, places[:nodePlaces]) {
			return
		}
		q := *p
		q.Point = geo.InteriorPointMulti(mp)
		places = append(places, q)
	}
	// Multipolygons.
	sort.Slice(rd.rels, func(i, j int) bool { return rd.rels[i].ID < rd.rels[j].ID })
	for _, r := range rd.rels {
		c, isArea := areaClass(r.Tags)
		var pl *Place
		if p, ok := placeOf(r.Tags); ok {
			pl = &p
		}
		if !isArea && pl == nil {
			continue
		}
		var members []osmarea.Member
		for _, m := range r.Members {
			if m.Type != osm.TypeWay {
				continue
			}
			switch m.Role {
			case "", "outer", "inner":
			default:
				continue
			}
			if w := rd.way(m.Ref); w != nil {
				members = append(members, osmarea.Member{Way: w, Role: m.Role})
			}
		}
		a := osmarea.AssembleRings(members)
		if len(a.Polygons) == 0 || (a.OpenRings > 0 && c != Water) {
			// A water relation cut by the extract keeps its closed rings
			// (a bay's islands are its own); others are dropped.
			rep.Broken++
			continue
		}
		rep.Relations++
		if isArea {
			for _, p := range a.Polygons {
				areas = append(areas, Area{Class: c, Polygon: p})
			}
		}
		addPlace(pl, a.Polygons)
	}
	// Closed ways.
	for _, w := range rd.areaWays {
		way := rd.way(w.id)
		if way == nil {
			continue
		}
		r := orb.Ring(way.Points)
		if planar.Area(r) == 0 {
			continue
		}
		if planar.Area(r) < 0 {
			r = reverse(r)
		}
		if w.class != Land {
			areas = append(areas, Area{Class: w.class, Polygon: orb.Polygon{r}})
		}
		addPlace(w.place, orb.MultiPolygon{{r}})
	}
	// The sea.
	var coast []CoastWay
	for _, id := range rd.coast {
		if w := rd.way(id); w != nil {
			coast = append(coast, CoastWay{Nodes: w.Nodes, Points: w.Points})
		}
	}
	sea, crep := AssembleSea(coast, bound)
	switch {
	case len(coast) == 0:
		// No coastline in the extract (roads only, or inland): the sea is
		// the world base layer's, where its coast crosses the box, so
		// that the box's Land does not cover the ocean (Porto).
		wc, err := worldCoast(nil, bound, func(orb.Point) bool { return true })
		if err != nil {
			return nil, rep, err
		}
		if len(wc) > 0 {
			sea, crep = AssembleSea(wc, bound)
			crep.WorldWays = len(wc)
		}
	case len(sea) > 0:
		// Where the extract cuts its coast, that sea floods the land
		// beyond the cut: the world base layer's coast closes it there
		// (worldcoast.go).
		seaIx := make([]*polygonIndex, len(sea))
		for i, s := range sea {
			seaIx[i] = newPolygonIndex(s)
		}
		flooded := func(p orb.Point) bool {
			for _, s := range seaIx {
				if s.bound.Contains(p) && s.contains(p) {
					return true
				}
			}
			return false
		}
		wc, err := worldCoast(coast, bound, flooded)
		if err != nil {
			return nil, rep, err
		}
		if len(wc) > 0 {
			sea, crep = AssembleSea(append(coast, wc...), bound)
			crep.WorldWays = len(wc)
		}
	}
	rep.Coast, rep.Sea = crep, sea
	for _, p := range sea {
		areas = append(areas, Area{Class: Water, Polygon: p})
	}
	// Lines.
	sort.Slice(rd.lineWays, func(i, j int) bool { return rd.lineWays[i].id < rd.lineWays[j].id })
	for _, w := range rd.lineWays {
		if way := rd.way(w.id); way != nil {
			lines = append(lines, Line{Class: Railway, Line: orb.LineString(way.Points)})
		}
	}
	adminIDs := make([]int64, 0, len(rd.admin))
	for id := range rd.admin {
		adminIDs = append(adminIDs, id)
	}
	sort.Slice(adminIDs, func(i, j int) bool { return adminIDs[i] < adminIDs[j] })
	for _, id := range adminIDs {
		if way := rd.way(id); way != nil {
			lines = append(lines, Line{Class: rd.admin[id], Line: orb.LineString(way.Points)})
		}
	}
	// The ways and node positions are all used: let them go before the
	// bands are made.
	rd.ways, rd.coords = osmfile.WayNodes{}, nil
	l := NewBounded(bound, areas, lines, places)
	rep.Stats = l.Stats()
	return l, rep, nil
}
