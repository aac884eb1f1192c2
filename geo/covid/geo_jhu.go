package covid

import (
	"math"
	"slices"
)

// jhuGlobal resolves JHU's global series (keys country and province):
//
//   - Every row gets a home country, an ISO3 code: from the config's iso3
//     map ("Country/Province" or "Country"), else from JHU's lookup table.
//     A province row without a code of its own belongs to its country; a
//     row whose country has no code (cruise ships, Olympic Games) is left
//     out.
//   - admin0 of a country X is X's own row (empty province) when it has
//     one (France, Denmark, the UK, the Netherlands: their territories are
//     rows of their own codes, not in X's total); otherwise the sum of
//     every row whose home is X (Canada, Australia, China: provinces plus
//     rows such as Unknown). Hong Kong and Macau (HKG, MAC) have codes of
//     their own, so China's admin0 is the mainland provinces plus Unknown,
//     without them.
//   - admin1 are the province rows that are areas, under the country whose
//     row they are in: "CAN|Ontario", "FRA|French Polynesia",
//     "CHN|Hong Kong". A territory with a code of its own is thus both its
//     own admin0 (PYF) and an admin1 of the country JHU files it under.
//   - Province rows listed under not_areas (Unknown, Diamond Princess, ...)
//     are no record: they count in their country's admin0 sum when the
//     country has no own row, else nowhere.
func (r *resolver) jhuGlobal(idx []int) error {
	cfg := r.ds.Geographies.JHUGlobal
	code := func(country, province string) string {
		k := placeKey(country, province)
		if v, ok := cfg.ISO3[k]; ok {
			return canonicalISO3(v)
		}
		if row, ok := r.lk.place(k); ok {
			return canonicalISO3(row.iso3)
		}
		return ""
	}
	type home struct {
		own  [numMeasures]int
		all  [numMeasures][]int
		pop  float64 // from the country's own lookup row
		popP float64 // from a province row with the code of its own
		name string
	}
	homes := map[string]*home{}
	var order []string
	var notAreaRows []int
	for _, i := range idx {
		row := &r.rows[i]
		country, province := row.keys["country"], row.keys["province"]
		c := code(country, "")
		notArea := province != "" && slices.Contains(cfg.NotAreas, province)
		h := c
		if province != "" && !notArea {
			if own := code(country, province); own != "" {
				h = own
			}
		}
		if h == "" {
			r.rep.note(&r.rep.LeftOut, row, "no country: JHU's lookup table and the config give no ISO3 code")
			continue
		}
		hm := homes[h]
		if hm == nil {
			hm = &home{pop: math.NaN(), popP: math.NaN()}
			for m := range hm.own {
				hm.own[m] = -1
			}
			name := country
			if h != c {
				name = province
			}
			hm.name = countryName(h, name)
			homes[h] = hm
			order = append(order, h)
		}
		m := measureIndex(row.measure)
		if province == "" {
			hm.own[m] = i
		} else {
			hm.all[m] = append(hm.all[m], i)
		}
		if h == c {
			if lr, ok := r.lk.place(placeKey(country, "")); ok && math.IsNaN(hm.pop) {
				hm.pop = lr.population
			}
		} else if lr, ok := r.lk.place(placeKey(country, province)); ok && math.IsNaN(hm.popP) {
			hm.popP = lr.population
		}
		switch {
		case notArea:
			notAreaRows = append(notAreaRows, i)
		case province != "" && c != "":
			a := r.get(c+"|"+province, c, 1, province)
			a.add(r.rows, i)
			if lr, ok := r.lk.place(placeKey(country, province)); ok {
				a.population = lr.population
			}
		}
	}
	for _, h := range order {
		hm := homes[h]
		a := r.get(h, h, 0, hm.name)
		for m := range hm.own {
			if hm.own[m] >= 0 {
				a.parts[m] = []int{hm.own[m]}
			} else {
				a.parts[m] = hm.all[m]
			}
		}
		a.population = hm.pop
		if math.IsNaN(a.population) {
			a.population = hm.popP
		}
	}
	for _, i := range notAreaRows {
		row := &r.rows[i]
		h := code(row.keys["country"], "")
		if homes[h].own[measureIndex(row.measure)] >= 0 {
			r.rep.note(&r.rep.LeftOut, row, "not an area, and %s has a row of its own: counted nowhere", h)
		} else {
			r.rep.note(&r.rep.NotAreas, row, "not an area: counted in the admin0 sum of %s", h)
		}
	}
	return nil
}
