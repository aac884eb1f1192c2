package covid

import (
	"fmt"
	"math"
	"strconv"
)

// usFIPS resolves US series keyed by FIPS code (keys fips, name, state):
//
//   - level 2 inputs (JHU's county series): a row with a 5-digit FIPS below
//     not_county_from is the county record USA|<state FIPS>|<county FIPS>.
//     Every row, county or not (Out of <state> 800xx, Unassigned 900xx,
//     state-level rows of territories, areas without FIPS such as Kansas
//     City or the Utah health districts), counts in its state's sum; the
//     state is the FIPS's first two digits for a county, else the state
//     named in the row. A row without a known state (cruise ships) is
//     left out.
//   - level 1 inputs (NYT's state series): the state record USA|<FIPS>;
//     when given, its series replaces the sum of the county rows.
//   - a territory listed under territories (Puerto Rico, Guam, ...) is
//     also the admin0 record of its own ISO3 code, with the state
//     record's series.
//   - pooled counties (the config's pooled list) keep their record and
//     population but no series: included_in names the record that holds
//     their cases. When that record is a county (New York County for all
//     of NYC), the pooled counties' populations are added to its own.
func (r *resolver) usFIPS(idx []int) error {
	cfg := r.ds.Geographies.USFIPS
	if len(idx) == 0 {
		return nil
	}
	if cfg.Country == "" || cfg.NotCountyFrom == 0 {
		return fmt.Errorf("config needs country and not_county_from")
	}
	levels := map[string]int{}
	for _, in := range r.ds.Inputs {
		levels[in.Name] = in.Level
	}
	country := cfg.Country
	type state struct {
		name   string
		sum    [numMeasures][]int // county-level rows
		direct [numMeasures]int   // a level-1 row
	}
	states := map[string]*state{}
	var stateOrder []string
	getState := func(fips string) *state {
		st := states[fips]
		if st == nil {
			st = &state{}
			for m := range st.direct {
				st.direct[m] = -1
			}
			states[fips] = st
			stateOrder = append(stateOrder, fips)
		}
		return st
	}
	for _, i := range idx {
		row := &r.rows[i]
		m := measureIndex(row.measure)
		fips, fipsOK := normalizeFIPS(row.keys["fips"])
		switch levels[row.input] {
		case 1:
			if !fipsOK || len(fips) != 2 {
				r.rep.note(&r.rep.LeftOut, row, "no state FIPS code")
				continue
			}
			st := getState(fips)
			st.direct[m] = i
			if n := row.keys["name"]; n != "" {
				st.name = n
			}
		case 2:
			n := 0
			if fipsOK {
				n, _ = strconv.Atoi(fips)
			}
			if fipsOK && len(fips) == 5 && n >= 1000 && n < cfg.NotCountyFrom {
				sf := fips[:2]
				st := getState(sf)
				st.sum[m] = append(st.sum[m], i)
				if st.name == "" {
					st.name = row.keys["state"]
				}
				a := r.get(country+"|"+sf+"|"+fips, country, 2, row.keys["name"])
				a.add(r.rows, i)
				a.population = r.lk.population(fips)
				continue
			}
			sf, ok := r.lk.stateByName(row.keys["state"])
			if !ok && fipsOK && len(fips) == 2 {
				sf, ok = fips, true
			}
			if !ok {
				r.rep.note(&r.rep.LeftOut, row, "no county and no known state")
				continue
			}
			st := getState(sf)
			st.sum[m] = append(st.sum[m], i)
			if st.name == "" {
				st.name = row.keys["state"]
			}
			r.rep.note(&r.rep.NotAreas, row, "not a county: counted in the sum of state %s", sf)
		default:
			return fmt.Errorf("input %s: level %d: want 1 (states) or 2 (counties)", row.input, levels[row.input])
		}
	}
	for _, sf := range stateOrder {
		st := states[sf]
		a := r.get(country+"|"+sf, country, 1, st.name)
		for m := range st.direct {
			if st.direct[m] >= 0 {
				a.parts[m] = []int{st.direct[m]}
			} else {
				a.parts[m] = st.sum[m]
			}
		}
		a.population = r.lk.population(sf)
		if iso, ok := cfg.Territories[sf]; ok {
			iso = canonicalISO3(iso)
			if _, dup := r.byID[iso]; dup {
				return fmt.Errorf("territory %s: %s already has an admin0 record", sf, iso)
			}
			t := r.get(iso, iso, 0, countryName(iso, st.name))
			t.parts, t.population = a.parts, a.population
		}
	}
	return r.pool(cfg)
}

// pool applies the config's pooled counties.
func (r *resolver) pool(cfg usFIPSConfig) error {
	for _, p := range cfg.Pooled {
		holder := r.byID[p.IncludedIn]
		if holder == nil {
			continue // the holder's input was not read
		}
		for _, fips := range p.Counties {
			id := cfg.Country + "|" + fips[:min(2, len(fips))] + "|" + fips
			a := r.byID[id]
			if a == nil {
				continue
			}
			if a.includedIn != "" {
				return fmt.Errorf("county %s pooled twice", fips)
			}
			a.includedIn = holder.id
			a.parts = [numMeasures][]int{}
			if holder.level == 2 && !math.IsNaN(a.population) && !math.IsNaN(holder.population) {
				holder.population += a.population
			}
			r.rep.Pooled = append(r.rep.Pooled, Note{Row: id + " " + a.name, Reason: fmt.Sprintf("cases filed under %s: case fields omitted, included_in %s", p.Area, holder.id)})
		}
	}
	return nil
}
