package covid

import (
	"fmt"
	"math"
	"slices"
	"strconv"
)

// nycModZCTA resolves NYC DOHMH's modified ZIP code tabulation areas (key
// code, the MODZCTA; totals also give name and group, the borough):
//
//   - A 5-digit code not under exclude is a ZIP area record at the
//     configured level (admin8), id USA|36|<borough's county FIPS>|<code>,
//     so that its parent id is its borough's county. The borough comes
//     from the totals' group column; an area without one is left out.
//   - Other columns of the trends (CITY, BX, BK, MN, QN, SI: the city and
//     borough rates) are no record.
//   - The record's series are the totals (one point each of cases and
//     deaths) and the weekly case rate; its population is the totals'
//     POP_DENOMINATOR; its polygon comes from the geojson input.
func (r *resolver) nycModZCTA(idx []int) error {
	cfg := r.ds.Geographies.NYCModZCTA
	if len(idx) == 0 && len(r.polys) == 0 {
		return nil
	}
	if cfg.Country == "" || cfg.State == "" || cfg.Level < 1 || cfg.Level > 8 {
		return fmt.Errorf("config needs country, state and a level 1 to 8")
	}
	isArea := func(code string) bool {
		if len(code) != 5 || slices.Contains(cfg.Exclude, code) {
			return false
		}
		_, err := strconv.Atoi(code)
		return err == nil
	}
	county := map[string]string{}
	name := map[string]string{}
	pop := map[string]float64{}
	for _, i := range idx {
		row := &r.rows[i]
		code := row.keys["code"]
		if g := row.keys["group"]; g != "" && isArea(code) {
			c, ok := cfg.Boroughs[g]
			if !ok {
				return fmt.Errorf("%s: borough %q not in the config's boroughs", row.label(), g)
			}
			county[code] = c
			if n := row.keys["name"]; n != "" {
				name[code] = n
			}
			if !math.IsNaN(row.population) {
				pop[code] = row.population
			}
		}
	}
	areaOf := func(code string) *area {
		c, ok := county[code]
		if !ok {
			return nil
		}
		n := name[code]
		if n == "" {
			n = code
		}
		a := r.get(cfg.Country+"|"+cfg.State+"|"+c+"|"+code, cfg.Country, cfg.Level, n)
		if p, ok := pop[code]; ok {
			a.population = p
		}
		return a
	}
	for _, i := range idx {
		row := &r.rows[i]
		code := row.keys["code"]
		if !isArea(code) {
			r.rep.note(&r.rep.NotAreas, row, "not a ZIP area (city or borough column, or excluded)")
			continue
		}
		a := areaOf(code)
		if a == nil {
			r.rep.note(&r.rep.LeftOut, row, "ZIP area %s has no borough in the totals", code)
			continue
		}
		a.add(r.rows, i)
	}
	for pi := range r.polys {
		code := r.polys[pi].code
		if !isArea(code) {
			r.rep.NotAreas = append(r.rep.NotAreas, Note{Row: "polygon " + code, Reason: "excluded: no ZIP area"})
			continue
		}
		a := areaOf(code)
		if a == nil {
			r.rep.LeftOut = append(r.rep.LeftOut, Note{Row: "polygon " + code, Reason: "no borough in the totals"})
			continue
		}
		a.poly = pi
	}
	return nil
}
