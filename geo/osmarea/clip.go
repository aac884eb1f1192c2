package osmarea

import (
	"sort"
	"strconv"
	"strings"

	"github.com/paulmach/orb"
	"github.com/paulmach/orb/planar"

	"github.com/geosvc/geosvc/geo"
)

// ClipToSubareas stands in for every broken relation with an admin_level
// (a country or state cut by the extract's edge) with the union of its
// complete sub-areas inside the extract, as a new Area marked Clipped
// (and its Broken entry marked Clipped). Sub-areas are the relation's
// "subarea" members, recursively through broken ones; for a country
// (admin_level 2) also every complete administrative area whose ISO3166-2
// code starts with the country's ISO3166-1 code and that no country
// relation of that code names as its sub-area (when several broken
// relations share a code, the first by id takes those), or, when it has
// no such sub-area, the administrative area of the same name (a city
// state whose sea boundary is cut: Monaco's municipality stands in for
// Monaco). The union is built from the coarsest sub-areas down: a finer
// area is added only where the coarser ones do not already cover it, so
// the parts do not overlap. It returns the ids of the clipped relations.
// The work is linear in the areas and the sub-area links: an area is
// looked up by id, and the ISO3166-2 codes are grouped once.
func ClipToSubareas(res *Result) []int64 {
	complete := map[int64]*Area{}
	for i := range res.Areas {
		complete[res.Areas[i].ID] = &res.Areas[i]
	}
	broken := map[int64]*Broken{}
	for i := range res.Broken {
		broken[res.Broken[i].ID] = &res.Broken[i]
	}
	// The explicit sub-areas of every broken relation with a level, and
	// which complete areas a country relation names (by country code).
	parts := make([][]*Area, len(res.Broken))
	named := map[string]map[int64]bool{}
	for i := range res.Broken {
		b := &res.Broken[i]
		level := adminLevel(b.Tags)
		if level == 0 {
			continue
		}
		seen := map[int64]bool{b.ID: true}
		var collect func(ids []int64)
		collect = func(ids []int64) {
			for _, id := range ids {
				if seen[id] {
					continue
				}
				seen[id] = true
				if a, ok := complete[id]; ok {
					parts[i] = append(parts[i], a)
				} else if sb, ok := broken[id]; ok {
					collect(sb.Subareas)
				}
			}
		}
		collect(b.Subareas)
		if cc := countryCode(b.Tags); level == 2 && cc != "" {
			if named[cc] == nil {
				named[cc] = map[int64]bool{}
			}
			for _, a := range parts[i] {
				named[cc][a.ID] = true
			}
		}
	}
	// The complete areas below a country by the country code of their
	// ISO3166-2 code, for the countries cut by the extract.
	byCode := map[string][]*Area{}
	if len(named) > 0 {
		for i := range res.Areas {
			a := &res.Areas[i]
			iso := strings.ToUpper(a.Tags.Find("ISO3166-2"))
			if k := strings.IndexByte(iso, '-'); k > 0 && adminLevel(a.Tags) > 2 {
				if _, cut := named[iso[:k]]; cut {
					byCode[iso[:k]] = append(byCode[iso[:k]], a)
				}
			}
		}
	}
	// Which broken relation takes a code's unnamed areas: the first by id.
	taker := map[string]int64{}
	for i := range res.Broken {
		b := &res.Broken[i]
		if cc := countryCode(b.Tags); adminLevel(b.Tags) == 2 && cc != "" {
			if t, ok := taker[cc]; !ok || b.ID < t {
				taker[cc] = b.ID
			}
		}
	}
	var added []Area
	var ids []int64
	var byName map[string][]*Area // complete areas below level 2, by name (at the first need)
	for i := range res.Broken {
		b := &res.Broken[i]
		level := adminLevel(b.Tags)
		if level == 0 {
			continue
		}
		own := parts[i]
		if cc := countryCode(b.Tags); level == 2 && cc != "" {
			mine := map[int64]bool{}
			for _, a := range own {
				mine[a.ID] = true
			}
			for _, a := range byCode[cc] {
				if !mine[a.ID] && (!named[cc][a.ID] && taker[cc] == b.ID) {
					own = append(own, a)
				}
			}
		}
		if len(own) == 0 && level == 2 {
			// A city state (Monaco) whose sea boundary is cut: its
			// municipality of the same name stands in.
			if byName == nil {
				byName = map[string][]*Area{}
				for i := range res.Areas {
					a := &res.Areas[i]
					if name := a.Tags.Find("name"); name != "" && adminLevel(a.Tags) > 2 {
						byName[name] = append(byName[name], a)
					}
				}
			}
			own = append(own, byName[b.Tags.Find("name")]...)
		}
		if len(own) == 0 {
			continue
		}
		sort.SliceStable(own, func(i, j int) bool { return adminLevel(own[i].Tags) < adminLevel(own[j].Tags) })
		var union orb.MultiPolygon
		for _, p := range own {
			if len(union) > 0 && planar.MultiPolygonContains(union, geo.InteriorPointMulti(p.Polygons)) {
				continue
			}
			union = append(union, p.Polygons...)
		}
		b.Clipped = true
		ids = append(ids, b.ID)
		added = append(added, Area{ID: b.ID, Tags: b.Tags, Polygons: union, Subareas: b.Subareas, Clipped: true})
	}
	res.Areas = append(res.Areas, added...)
	return ids
}

// adminLevel returns the admin_level tag of a boundary=administrative
// object, 0 when none.
func adminLevel(tags interface{ Find(string) string }) int {
	if tags.Find("boundary") != "administrative" {
		return 0
	}
	n, err := strconv.Atoi(tags.Find("admin_level"))
	if err != nil || n < 1 {
		return 0
	}
	return n
}

// countryCode returns the ISO 3166-1 alpha-2 code a country's tags carry.
func countryCode(tags interface{ Find(string) string }) string {
	for _, k := range []string{"ISO3166-1:alpha2", "ISO3166-1", "country_code"} {
		if v := strings.ToUpper(tags.Find(k)); len(v) == 2 {
			return v
		}
	}
	return ""
}
