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
// code starts with the country's ISO3166-1 code, or, when it has no such
// sub-area, the administrative area of the same name (a city state whose
// sea boundary is cut: Monaco's municipality stands in for Monaco). The union is built from
// the coarsest sub-areas down: a finer area is added only where the
// coarser ones do not already cover it, so the parts do not overlap. It
// returns the ids of the clipped relations.
func ClipToSubareas(res *Result) []int64 {
	complete := map[int64]*Area{}
	for i := range res.Areas {
		complete[res.Areas[i].ID] = &res.Areas[i]
	}
	broken := map[int64]*Broken{}
	for i := range res.Broken {
		broken[res.Broken[i].ID] = &res.Broken[i]
	}
	var added []Area
	var ids []int64
	for i := range res.Broken {
		b := &res.Broken[i]
		level := adminLevel(b.Tags)
		if level == 0 {
			continue
		}
		seen := map[int64]bool{b.ID: true}
		var parts []*Area
		var collect func(ids []int64)
		collect = func(ids []int64) {
			for _, id := range ids {
				if seen[id] {
					continue
				}
				seen[id] = true
				if a, ok := complete[id]; ok {
					parts = append(parts, a)
				} else if sb, ok := broken[id]; ok {
					collect(sb.Subareas)
				}
			}
		}
		collect(b.Subareas)
		if cc := countryCode(b.Tags); level == 2 && cc != "" {
			for i := range res.Areas {
				a := &res.Areas[i]
				if !seen[a.ID] && adminLevel(a.Tags) > level && strings.HasPrefix(strings.ToUpper(a.Tags.Find("ISO3166-2")), cc+"-") {
					seen[a.ID] = true
					parts = append(parts, a)
				}
			}
		}
		if len(parts) == 0 && level == 2 {
			// A city state (Monaco) whose sea boundary is cut: its
			// municipality of the same name stands in.
			name := b.Tags.Find("name")
			for i := range res.Areas {
				a := &res.Areas[i]
				if name != "" && adminLevel(a.Tags) > level && a.Tags.Find("name") == name {
					parts = append(parts, a)
				}
			}
		}
		if len(parts) == 0 {
			continue
		}
		sort.SliceStable(parts, func(i, j int) bool { return adminLevel(parts[i].Tags) < adminLevel(parts[j].Tags) })
		var union orb.MultiPolygon
		for _, p := range parts {
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
