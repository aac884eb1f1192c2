// Package osmarea owns polygon assembly from OpenStreetMap: it reads the
// multipolygon and boundary relations (and closed ways) an importer selects
// from an OSM file in two passes and assembles them into valid
// orb.MultiPolygons, reporting the relations that cannot be closed in the
// extract, and stands in for cut countries and states with the union of
// their complete sub-areas (ClipToSubareas).
package osmarea

import (
	"fmt"
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

// Read reads the areas sel selects from f in two passes: ways and
// relations (keeping the node lists of every way, since relations come
// after the ways they use), then the nodes those areas need.
func Read(f *osmfile.File, sel Selector) (*Result, error) {
	wayNodes := map[int64][]int64{}
	var rels []*osm.Relation
	var areaWays []*osm.Way
	res := &Result{}
	_, err := f.Scan(osmfile.Filter{
		SkipNodes: true,
		Way:       func(w *osm.Way) bool { return len(w.Nodes) >= 2 },
		Relation:  sel.Relation,
	}, func(o osm.Object) error {
		switch o := o.(type) {
		case *osm.Way:
			ids := make([]int64, len(o.Nodes))
			for i, n := range o.Nodes {
				ids[i] = int64(n.ID)
			}
			wayNodes[int64(o.ID)] = ids
			if sel.Way != nil && ids[0] == ids[len(ids)-1] && len(ids) >= 4 && sel.Way(o) {
				areaWays = append(areaWays, &osm.Way{ID: o.ID, Tags: o.Tags})
			}
		case *osm.Relation:
			rels = append(rels, o)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	// Keep only the ways the areas use, and collect their nodes.
	used := map[int64][]int64{}
	for _, r := range rels {
		for _, m := range r.Members {
			if m.Type == osm.TypeWay {
				if ns, ok := wayNodes[m.Ref]; ok {
					used[m.Ref] = ns
				}
			}
		}
	}
	for _, w := range areaWays {
		used[int64(w.ID)] = wayNodes[int64(w.ID)]
	}
	wayNodes = nil
	need := map[int64]orb.Point{}
	for _, ns := range used {
		for _, n := range ns {
			need[n] = orb.Point{}
		}
	}
	coords := make(map[int64]orb.Point, len(need))
	hdr, err := f.Scan(osmfile.Filter{
		SkipWays: true, SkipRelations: true,
		Node: func(n *osm.Node) bool { _, ok := need[int64(n.ID)]; return ok },
	}, func(o osm.Object) error {
		if n, ok := o.(*osm.Node); ok {
			coords[int64(n.ID)] = geo.Round7Point(orb.Point{n.Lon, n.Lat})
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	res.Header = hdr
	ways := make(map[int64]*Way, len(used))
	for id, ns := range used {
		w := &Way{ID: id, Nodes: ns, Points: make([]orb.Point, len(ns))}
		for i, n := range ns {
			p, ok := coords[n]
			if !ok {
				w.Points = nil
				break
			}
			w.Points[i] = p
		}
		ways[id] = w
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
				w := ways[m.Ref]
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
		a := AssembleRings([]Member{{Way: ways[int64(w.ID)], Role: "outer"}})
		if len(a.Polygons) == 0 {
			continue
		}
		res.Areas = append(res.Areas, Area{ID: -int64(w.ID), Tags: w.Tags, Polygons: a.Polygons})
	}
	return res, nil
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
