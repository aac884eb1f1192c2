package covid

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/biter777/countries"
)

// Measure indexes of an area's parts.
const (
	mCases = iota
	mDeaths
	mCaseRate
	numMeasures
)

// measureIndex returns the index of a measure name, -1 when unknown.
func measureIndex(m string) int {
	switch m {
	case measureCases:
		return mCases
	case measureDeaths:
		return mDeaths
	case measureCaseRate:
		return mCaseRate
	}
	return -1
}

// area is one administration the layer has a record for: its identity and
// which raw rows make its series, per measure (one row, or several that
// are summed).
type area struct {
	id    string
	iso3  string
	level int
	name  string
	// population is NaN when unknown.
	population float64
	// includedIn is the id of the record whose totals hold this area's
	// cases (pooled counties); its own case fields are then omitted.
	includedIn string
	parts      [numMeasures][]int
	// poly is the index of the area's polygon in the layer, -1 when none.
	poly int
}

// newArea returns an area without parts or polygon.
func newArea(id, iso3 string, level int, name string) *area {
	return &area{id: id, iso3: iso3, level: level, name: name, population: math.NaN(), poly: -1}
}

// resolver turns raw rows into areas, per geography.
type resolver struct {
	ds    *datasetConfig
	lk    *lookup
	rows  []rawRow
	byID  map[string]*area
	polys []polygon
	rep   *Report
}

// resolve resolves the rows of every geography into areas, sorted by id.
func resolve(ds *datasetConfig, lk *lookup, rows []rawRow, polys []polygon) ([]*area, *Report, error) {
	r := &resolver{ds: ds, lk: lk, rows: rows, byID: map[string]*area{}, polys: polys, rep: &Report{}}
	byGeo := map[string][]int{}
	inputGeo := map[string]string{}
	for _, in := range ds.Inputs {
		inputGeo[in.Name] = in.Geography
	}
	for i := range rows {
		g := inputGeo[rows[i].input]
		byGeo[g] = append(byGeo[g], i)
	}
	if err := r.jhuGlobal(byGeo[geoJHUGlobal]); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", geoJHUGlobal, err)
	}
	if err := r.usFIPS(byGeo[geoUSFIPS]); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", geoUSFIPS, err)
	}
	if err := r.nycModZCTA(byGeo[geoNYCModZCTA]); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", geoNYCModZCTA, err)
	}
	areas := make([]*area, 0, len(r.byID))
	for _, a := range r.byID {
		areas = append(areas, a)
	}
	sort.Slice(areas, func(i, j int) bool { return areas[i].id < areas[j].id })
	r.rep.sort()
	return areas, r.rep, nil
}

// get returns the area of id, creating it when new.
func (r *resolver) get(id, iso3 string, level int, name string) *area {
	if a := r.byID[id]; a != nil {
		return a
	}
	a := newArea(id, iso3, level, name)
	r.byID[id] = a
	return a
}

// add appends row i to the area's parts of the row's measure.
func (a *area) add(rows []rawRow, i int) {
	m := measureIndex(rows[i].measure)
	a.parts[m] = append(a.parts[m], i)
}

// canonicalISO3 returns the ISO 3166-1 alpha-3 code biter777/countries
// gives for code (JHU's XKS for Kosovo becomes XKX), code itself when the
// library does not know it.
func canonicalISO3(code string) string {
	code = strings.ToUpper(strings.TrimSpace(code))
	if code == "" {
		return ""
	}
	if c := countries.ByName(code); c != countries.Unknown {
		if a3 := c.Alpha3(); a3 != "" {
			return a3
		}
	}
	return code
}

// countryName returns the English name of an ISO3 country, fallback when
// the library does not know it.
func countryName(iso3, fallback string) string {
	if c := countries.ByName(iso3); c != countries.Unknown {
		return c.String()
	}
	return fallback
}
