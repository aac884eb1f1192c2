package mapdata

import (
	"strconv"
	"strings"

	"github.com/paulmach/orb"
	"github.com/paulmach/orb/planar"
	"github.com/paulmach/osm"
)

// areaClass returns the class of an area's tags (a closed way or a
// multipolygon relation), ok false when the map does not draw it. The
// table is in docs/maps.md; the first rule that matches wins, so a
// building in a park is a building.
func areaClass(t osm.Tags) (Class, bool) {
	if v := t.Find("building"); v != "" && v != "no" {
		return Buildings, true
	}
	switch t.Find("natural") {
	case "water", "bay", "strait":
		return Water, true
	case "wood":
		return Woodland, true
	case "heath", "moor", "scrub", "grassland", "fell", "wetland":
		return Moor, true
	case "beach", "sand", "dune":
		return Sand, true
	}
	switch t.Find("waterway") {
	case "riverbank", "dock":
		return Water, true
	}
	switch t.Find("landuse") {
	case "reservoir", "basin", "salt_pond":
		return Water, true
	case "forest":
		return Woodland, true
	case "industrial", "commercial", "quarry", "port":
		return Industry, true
	case "residential", "retail":
		return Community, true
	case "railway":
		return RailroadArea, true
	case "recreation_ground", "village_green":
		return Park, true
	}
	switch t.Find("leisure") {
	case "park", "nature_reserve", "garden", "golf_course", "common", "recreation_ground":
		return Park, true
	}
	switch t.Find("boundary") {
	case "national_park":
		return Park, true
	case "protected_area":
		if t.Find("leisure") == "nature_reserve" || t.Find("protect_class") == "2" || t.Find("protect_class") == "5" {
			return Park, true
		}
	}
	return 0, false
}

// railwayLine reports whether a way is a railway line the map draws.
func railwayLine(t osm.Tags) bool {
	switch t.Find("railway") {
	case "rail", "light_rail", "subway", "narrow_gauge", "tram", "monorail", "funicular", "preserved":
		return true
	}
	return false
}

// adminLineClass returns the line class of a boundary relation's ways:
// Border for admin_level 2, Province for 4.
func adminLineClass(t osm.Tags) (Class, bool) {
	if t.Find("boundary") != "administrative" {
		return 0, false
	}
	switch t.Find("admin_level") {
	case "2":
		return Border, true
	case "4":
		return Province, true
	}
	return 0, false
}

// placeOf returns the place a node's (or an area's) tags describe, ok
// false for a place the map does not label or one without a name.
func placeOf(t osm.Tags) (Place, bool) {
	var p Place
	switch t.Find("place") {
	case "city":
		p.Kind = City
	case "town":
		p.Kind = Town
	case "village":
		p.Kind = Village
	case "hamlet":
		p.Kind = Hamlet
	case "suburb", "borough":
		p.Kind = Suburb
	case "quarter":
		p.Kind = Quarter
	case "neighbourhood":
		p.Kind = Neighbourhood
	default:
		return p, false
	}
	p.Name = t.Find("name")
	if p.Name == "" {
		return p, false
	}
	p.Population = parsePopulation(t.Find("population"))
	switch t.Find("capital") {
	case "yes", "2", "4":
		p.Capital = true
	}
	return p, true
}

// parsePopulation reads a population tag ("72664", "1,234", "1 234",
// "~500"); 0 when it is not a number.
func parsePopulation(v string) int {
	v = strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(v), "~"))
	v = strings.NewReplacer(",", "", " ", "", "\u00a0", "").Replace(v)
	if i := strings.IndexAny(v, ".;"); i >= 0 {
		v = v[:i]
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		return 0
	}
	return n
}

// labelledByNode reports whether an area place (a town's boundary tagged
// place=*) is already labelled by one of the place nodes: one inside the
// area whose name is the area's, or a word-bounded part of it ("Seaford"
// in "City of Seaford"). A map then shows the node's label only, not
// both.
func labelledByNode(area Place, mp orb.MultiPolygon, nodes []Place) bool {
	b := mp.Bound()
	for _, n := range nodes {
		if !b.Contains(n.Point) || !sameTownName(area.Name, n.Name) {
			continue
		}
		if planar.MultiPolygonContains(mp, n.Point) {
			return true
		}
	}
	return false
}

// sameTownName reports whether node names the town area names: equal
// (ignoring case) or a run of whole words of it.
func sameTownName(area, node string) bool {
	a, n := strings.ToLower(strings.TrimSpace(area)), strings.ToLower(strings.TrimSpace(node))
	if n == "" {
		return false
	}
	i := strings.Index(a, n)
	if i < 0 {
		return false
	}
	before := i == 0 || a[i-1] == ' '
	after := i+len(n) == len(a) || a[i+len(n)] == ' ' || a[i+len(n)] == ','
	return before && after
}
