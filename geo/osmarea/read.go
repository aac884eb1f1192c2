// Package osmarea owns polygon assembly from OpenStreetMap: it reads the
// multipolygon and boundary relations (and closed ways) an importer selects
// from an OSM file in two passes and assembles them into valid
// orb.MultiPolygons, reporting the relations that cannot be closed in the
// extract, and stands in for cut countries and states with the union of
// their complete sub-areas (ClipToSubareas).
package osmarea

import (
	"fmt"
	"slices"
	"sort"

	"github.com/paulmach/orb"
	"github.com/paulmach/osm"

	"github.com/geosvc/geosvc/geo"
	"github.com/geosvc/geosvc/geo/osmfile"
)

// Selector says which OSM objects are areas to assemble.
type Selector struct {
	// Relation selects relations (typically type=multipolygon or
	// type=boundary with some tag). Runs concurrently (osmfile.Filter).
	Relation func(*osm.Relation) bool
	// Way selects closed ways to keep as areas of their own; nil keeps
	// none. Runs concurrently.
	Way func(*osm.Way) bool
}

// Area is an assembled area.
type Area struct {
	// ID is the OSM relation id, or the negated way id of a closed way.
	ID int64
	// Tags are the object's tags.
	Tags osm.Tags
	// Polygons is the geometry (see Assembly.Polygons).
	Polygons orb.MultiPolygon
	// Subareas are the ids of the relation's members of role "subarea".
	Subareas []int64
	// Clipped is true for an area written by ClipToSubareas.
	Clipped bool
	// RoleMismatches is Assembly.RoleMismatches.
	RoleMismatches int
}

// Broken is a selected relation whose rings could not be closed.
type Broken struct {
	// ID is the relation id.
	ID int64
	// Tags are its tags.
	Tags osm.Tags
	// Subareas are the ids of its "subarea" members.
	Subareas []int64
	// MissingWays counts member ways absent from the file (or with nodes
	// absent); OpenRings counts the chains that could not be closed.
	MissingWays, OpenRings int
	// Clipped is true when ClipToSubareas stood in for it.
	Clipped bool
}

// Reason says why the relation is broken, for reports.
func (b Broken) Reason() string {
	s := fmt.Sprintf("%d open rings", b.OpenRings)
	if b.MissingWays > 0 {
		s += fmt.Sprintf(", %d member ways missing from the extract", b.MissingWays)
	}
	if b.OpenRings == 0 {
		s = "no closed ring"
		if b.MissingWays > 0 {
			s += fmt.Sprintf(", %d member ways missing from the extract", b.MissingWays)
		}
	}
	return s
}

// Result is what Read found.
type Result struct {
	// Areas are the assembled areas, relations then ways, each by id.
	Areas []Area
	// Broken are the selected relations that could not be assembled, by id.
	Broken []Broken
	// Relations and Ways count the selected relations and closed ways.
	Relations, Ways int
	// Header is the file's header.
	Header osmfile.Header
}

// Read reads the areas sel selects from f. A PBF file is read in three
// passes, each keeping only what the areas use: the relations, then their
// member ways and the closed ways sel selects, then those ways' nodes. An
// XML file, where every pass parses the whole file again, is read in two:
// ways and relations together (keeping every way's node list until the
// relations are known), then the nodes.
func Read(f *osmfile.File, sel Selector) (*Result, error) {
	var rels []*osm.Relation
	var areaWays []*osm.Way
	var ways osmfile.WayNodes
	res := &Result{}
	// isArea reports whether a way is an area of its own.
	isArea := func(w *osm.Way) bool {
		n := w.Nodes
		return sel.Way != nil && len(n) >= 4 && n[0].ID == n[len(n)-1].ID && sel.Way(w)
	}
	onWay := func(w *osm.Way, area bool) {
		ways.Add(int64(w.ID), w.Nodes)
		if area {
			areaWays = append(areaWays, &osm.Way{ID: w.ID, Tags: w.Tags})
		}
	}
	var err error
	if f.Format() == osmfile.FormatPBF {
		_, err = f.Scan(osmfile.Filter{SkipNodes: true, SkipWays: true, Relation: sel.Relation}, func(o osm.Object) error {
			if r, ok := o.(*osm.Relation); ok {
				rels = append(rels, r)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		members := memberWays(rels)
		_, err = f.Scan(osmfile.Filter{SkipNodes: true, SkipRelations: true, Way: func(w *osm.Way) bool {
			if len(w.Nodes) < 2 {
				return false
			}
			_, member := slices.BinarySearch(members, int64(w.ID))
			return member || isArea(w)
		}}, func(o osm.Object) error {
			if w, ok := o.(*osm.Way); ok {
				onWay(w, isArea(w))
			}
			return nil
		})
	} else {
		_, err = f.Scan(osmfile.Filter{
			SkipNodes: true,
			Way:       func(w *osm.Way) bool { return len(w.Nodes) >= 2 },
			Relation:  sel.Relation,
		}, func(o osm.Object) error {
			switch o := o.(type) {
			case *osm.Way:
				onWay(o, isArea(o))
			case *osm.Relation:
				rels = append(rels, o)
			}
			return nil
		})
		if err == nil {
			// Keep only the ways the areas use.
			members := memberWays(rels)
			area := make([]int64, len(areaWays))
			for i, w := range areaWays {
				area[i] = int64(w.ID)
			}
			slices.Sort(area)
			ways.Keep(func(id int64) bool {
				_, m := slices.BinarySearch(members, id)
				_, a := slices.BinarySearch(area, id)
				return m || a
			})
		}
	}
	if err != nil {
		return nil, err
	}
	ways.Sort()
	coords := osmfile.NewNodeCoords(ways.NodeIDs())
	hdr, err := f.Scan(osmfile.Filter{
		SkipWays: true, SkipRelations: true,
		Node: func(n *osm.Node) bool { coords.Record(n); return false },
	}, func(osm.Object) error { return nil })
	if err != nil {
		return nil, err
	}
	res.Header = hdr
	// way returns a way's nodes and positions, Points nil when a node is
	// missing from the file; nil when the way is.
	way := func(id int64) *Way {
		ns, ok := ways.Nodes(id)
		if !ok {
			return nil
		}
		w := &Way{ID: id, Nodes: ns, Points: make([]orb.Point, len(ns))}
		for i, n := range ns {
			p, ok := coords.Point(n)
			if !ok {
				w.Points = nil
				break
			}
			w.Points[i] = geo.Round7Point(p)
		}
		return w
	}
	res.Relations, res.Ways = len(rels), len(areaWays)
	sort.Slice(rels, func(i, j int) bool { return rels[i].ID < rels[j].ID })
	for _, r := range rels {
		var members []Member
		var subareas []int64
		missing := 0
		for _, m := range r.Members {
			switch {
			case m.Type == osm.TypeRelation && m.Role == "subarea":
				subareas = append(subareas, m.Ref)
			case m.Type == osm.TypeWay && isRingRole(m.Role):
				w := way(m.Ref)
				if w == nil || w.Points == nil {
					missing++
					continue
				}
				members = append(members, Member{Way: w, Role: m.Role})
			}
		}
		a := AssembleRings(members)
		if a.OpenRings > 0 || len(a.Polygons) == 0 {
			res.Broken = append(res.Broken, Broken{ID: int64(r.ID), Tags: r.Tags, Subareas: subareas,
				MissingWays: missing, OpenRings: a.OpenRings})
			continue
		}
		res.Areas = append(res.Areas, Area{ID: int64(r.ID), Tags: r.Tags, Polygons: a.Polygons,
			Subareas: subareas, RoleMismatches: a.RoleMismatches})
	}
	sort.Slice(areaWays, func(i, j int) bool { return areaWays[i].ID < areaWays[j].ID })
	for _, w := range areaWays {
		a := AssembleRings([]Member{{Way: way(int64(w.ID)), Role: "outer"}})
		if len(a.Polygons) == 0 {
			continue
		}
		res.Areas = append(res.Areas, Area{ID: -int64(w.ID), Tags: w.Tags, Polygons: a.Polygons})
	}
	return res, nil
}

// memberWays returns the ids of the way members of rels, sorted, once
// each.
func memberWays(rels []*osm.Relation) []int64 {
	var ids []int64
	for _, r := range rels {
		for _, m := range r.Members {
			if m.Type == osm.TypeWay {
				ids = append(ids, m.Ref)
			}
		}
	}
	slices.Sort(ids)
	return slices.Compact(ids)
}

// isRingRole reports whether a way member of that role belongs to the
// area's rings (not admin_centre, label, subarea, ...).
func isRingRole(role string) bool {
	switch role {
	case "", "outer", "inner", "exclave", "enclave":
		return true
	}
	return false
}
