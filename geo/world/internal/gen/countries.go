package main

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/biter777/countries"
	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/geo/world/internal/config"
	"github.com/geosvc/geosvc/geo/world/internal/topojson"
	"github.com/geosvc/geosvc/geo/world/internal/worldfile"
)

// countryFeatures builds the country features of Natural Earth's
// "countries" object by the rules of cfg: features with an id as they
// are, a repeated id merged, the features without an id given to a
// country, split, or left out. notes says what was done.
func countryFeatures(t *topojson.Topology, topo uint8, cfg *config.Countries) (fs []worldfile.Feature, notes []string, err error) {
	obj := t.Objects["countries"]
	if obj == nil || obj.Type != topojson.TypeGeometryCollection {
		return nil, nil, fmt.Errorf("no countries collection")
	}
	byID := map[string]*worldfile.Feature{}
	var order []string
	// iso2 holds the alpha-2 codes the rules give.
	iso2 := map[string]string{}
	add := func(id, name string, polys [][][]int32) {
		if f := byID[id]; f != nil {
			f.Polygons = append(f.Polygons, polys...)
			return
		}
		byID[id] = &worldfile.Feature{Kind: worldfile.KindCountry, Topology: topo, ID: id, Name: name, Polygons: polys}
		order = append(order, id)
	}
	// Features with an id first, so that the others can join them.
	dupNames := map[string][]string{}
	for _, g := range obj.Geometries {
		if g.ID == "" {
			continue
		}
		if !digits(g.ID, 3) {
			return nil, nil, fmt.Errorf("country %q: id %q is not an ISO 3166-1 numeric code", g.StringProperty("name"), g.ID)
		}
		dupNames[g.ID] = append(dupNames[g.ID], g.StringProperty("name"))
		add(g.ID, g.StringProperty("name"), refs32(g.Polygons))
	}
	for id, names := range dupNames {
		want, listed := cfg.Duplicates[id]
		switch {
		case len(names) > 1 && !listed:
			return nil, nil, fmt.Errorf("id %s is on %d features (%s): list it under countries.duplicates", id, len(names), strings.Join(names, ", "))
		case listed && len(names) < 2:
			return nil, nil, fmt.Errorf("countries.duplicates lists %s, which is on one feature only", id)
		case listed && !slices.Contains(names, want):
			return nil, nil, fmt.Errorf("countries.duplicates: %s is none of %v", want, names)
		case listed:
			byID[id].Name = want
			notes = append(notes, fmt.Sprintf("id %s: %s merged as %s", id, strings.Join(names, " + "), want))
		}
	}
	for id := range cfg.Duplicates {
		if dupNames[id] == nil {
			return nil, nil, fmt.Errorf("countries.duplicates lists %s, which no feature has", id)
		}
	}
	rules := map[string]config.Unidentified{}
	for _, u := range cfg.Unidentified {
		rules[u.Name] = u
	}
	used := map[string]bool{}
	for _, g := range obj.Geometries {
		if g.ID != "" {
			continue
		}
		name := g.StringProperty("name")
		u, ok := rules[name]
		if !ok {
			return nil, nil, fmt.Errorf("country %q has no id and no rule under countries.unidentified", name)
		}
		used[name] = true
		switch {
		case u.Omit:
			notes = append(notes, fmt.Sprintf("%s: left out", name))
		case u.ID != "":
			target := "a feature of its own"
			if f := byID[u.ID]; f != nil {
				target = "merged into " + f.Name
			}
			as := name
			if u.As != "" {
				as = u.As
			}
			add(u.ID, as, refs32(g.Polygons))
			if u.ISO2 != "" {
				iso2[u.ID] = u.ISO2
			}
			notes = append(notes, fmt.Sprintf("%s: id %s, %s", name, u.ID, target))
		default:
			parts, err := splitParts(t, g, u.Parts)
			if err != nil {
				return nil, nil, fmt.Errorf("country %q: %w", name, err)
			}
			for k, p := range u.Parts {
				add(p.ID, p.As, parts[k])
				notes = append(notes, fmt.Sprintf("%s: %d polygon(s) as %s (id %s)", name, len(parts[k]), p.As, p.ID))
			}
		}
	}
	for _, u := range cfg.Unidentified {
		if !used[u.Name] {
			return nil, nil, fmt.Errorf("countries.unidentified lists %q, which is no id-less feature of the data", u.Name)
		}
	}
	var unknown []string
	for _, id := range order {
		f := byID[id]
		n, _ := strconv.Atoi(id)
		known := countries.ByNumeric(n)
		switch code := iso2[id]; {
		case known == countries.Unknown && code == "":
			unknown = append(unknown, id+" "+f.Name)
		case known != countries.Unknown && code != "" && known.Alpha2() != code:
			return nil, nil, fmt.Errorf("id %s: the rules say %s, github.com/biter777/countries %s", id, code, known.Alpha2())
		case code != "":
			f.ISO2 = code
		default:
			f.ISO2 = known.Alpha2()
		}
		fs = append(fs, *f)
	}
	if len(unknown) > 0 {
		return nil, nil, fmt.Errorf("ids github.com/biter777/countries does not know (give them an iso2 rule): %s", strings.Join(unknown, "; "))
	}
	return fs, notes, nil
}

// splitParts assigns each polygon of g to the part whose box holds its
// exterior ring's bounding box.
func splitParts(t *topojson.Topology, g *topojson.Geometry, parts []config.Part) ([][][][]int32, error) {
	polys, err := t.Polygons(g)
	if err != nil {
		return nil, err
	}
	out := make([][][][]int32, len(parts))
	for i, rings := range polys {
		if len(rings) == 0 {
			continue
		}
		b := orb.Bound{Min: orb.Point{180, 90}, Max: orb.Point{-180, -90}}
		for _, p := range rings[0] {
			c := t.Coordinates(p)
			b = b.Extend(orb.Point{c[0], c[1]})
		}
		found := -1
		for k, p := range parts {
			box := orb.Bound{Min: orb.Point{p.Box[0], p.Box[1]}, Max: orb.Point{p.Box[2], p.Box[3]}}
			if box.Contains(b.Min) && box.Contains(b.Max) {
				if found >= 0 {
					return nil, fmt.Errorf("polygon %d (%v) is in the boxes of two parts", i, b)
				}
				found = k
			}
		}
		if found < 0 {
			return nil, fmt.Errorf("polygon %d (%v) is in no part's box", i, b)
		}
		out[found] = append(out[found], refs32(g.Polygons[i:i+1])...)
	}
	for k, p := range parts {
		if len(out[k]) == 0 {
			return nil, fmt.Errorf("part %s (%s) has no polygon", p.ID, p.As)
		}
	}
	return out, nil
}

// refs32 copies arc references into int32s (Decode checked they name
// arcs, so they fit).
func refs32(polys [][][]int) [][][]int32 {
	out := make([][][]int32, len(polys))
	for i, rings := range polys {
		out[i] = make([][]int32, len(rings))
		for j, refs := range rings {
			out[i][j] = make([]int32, len(refs))
			for k, r := range refs {
				out[i][j][k] = int32(r)
			}
		}
	}
	return out
}

// digits reports whether s is n decimal digits.
func digits(s string, n int) bool {
	if len(s) != n {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
