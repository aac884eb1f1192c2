package covid

import (
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// lookup is JHU's UID lookup table (UID_ISO_FIPS_LookUp_Table.csv): ISO3
// codes and populations of countries and provinces by (Province_State,
// Country_Region), and of US states and counties by FIPS.
type lookup struct {
	// places maps "Country" or "Country/Province" (JHU's names) to their
	// row; US county rows are not in it.
	places map[string]lookupRow
	// stateFIPS maps a US state's name to its 2-digit FIPS code.
	stateFIPS map[string]string
	// fipsPop maps a 2-digit (state) or 5-digit (county) FIPS code to its
	// population.
	fipsPop map[string]float64
	// used marks the entries looked up (kind letter + key).
	used map[string]bool
}

// lookupRow is one country or province of the lookup table.
type lookupRow struct {
	iso3       string
	population float64 // NaN when the table has none
}

// placeKey is the key of a country ("Canada") or province
// ("Canada/Ontario") in the lookup table and in the jhu-global config.
func placeKey(country, province string) string {
	if province == "" {
		return country
	}
	return country + "/" + province
}

// readLookup reads JHU's lookup table.
func readLookup(r io.Reader) (*lookup, error) {
	c := newCSVReader(r)
	_, cols, err := readHeader(c)
	if err != nil {
		return nil, err
	}
	need := []string{"iso3", "FIPS", "Admin2", "Province_State", "Country_Region", "Population"}
	idx := make(map[string]int, len(need))
	for _, n := range need {
		i, ok := cols[n]
		if !ok {
			return nil, fmt.Errorf("no column %s", n)
		}
		idx[n] = i
	}
	l := &lookup{places: map[string]lookupRow{}, stateFIPS: map[string]string{}, fipsPop: map[string]float64{}}
	for line := 2; ; line++ {
		rec, err := c.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		get := func(n string) string {
			if i := idx[n]; i < len(rec) {
				return strings.TrimSpace(rec[i])
			}
			return ""
		}
		pop := math.NaN()
		if f, err := strconv.ParseFloat(get("Population"), 64); err == nil && f > 0 && !math.IsInf(f, 0) {
			pop = f
		}
		country, province, admin2 := get("Country_Region"), get("Province_State"), get("Admin2")
		fips, fipsOK := normalizeFIPS(get("FIPS"))
		switch {
		case country == "US" && admin2 != "":
			if fipsOK && len(fips) == 5 && !math.IsNaN(pop) {
				l.fipsPop[fips] = pop
			}
		case country == "US" && province != "":
			if fipsOK && len(fips) == 2 {
				l.stateFIPS[province] = fips
				if !math.IsNaN(pop) {
					l.fipsPop[fips] = pop
				}
			}
		default:
			l.places[placeKey(country, province)] = lookupRow{iso3: get("iso3"), population: pop}
		}
	}
	return l, nil
}

// normalizeFIPS turns a FIPS cell into its 2-digit (state) or 5-digit
// (county or JHU's pseudo-county) form: "1001.0" -> "01001", "1" -> "01",
// "10" -> "10". ok is false for an empty or malformed cell.
func normalizeFIPS(s string) (string, bool) {
	s = strings.TrimSpace(s)
	s = strings.TrimSuffix(s, ".0")
	if s == "" || len(s) > 5 {
		return "", false
	}
	for _, c := range []byte(s) {
		if c < '0' || c > '9' {
			return "", false
		}
	}
	switch len(s) {
	case 1:
		return "0" + s, true
	case 2:
		return s, true
	}
	return strings.Repeat("0", 5-len(s)) + s, true
}

// place returns the lookup row of a country or province key and marks it
// used (only used entries go into the layer file).
func (l *lookup) place(key string) (lookupRow, bool) {
	row, ok := l.places[key]
	if ok {
		l.mark("p", key)
	}
	return row, ok
}

// stateByName returns the 2-digit FIPS code of a US state's name.
func (l *lookup) stateByName(name string) (string, bool) {
	f, ok := l.stateFIPS[name]
	if ok {
		l.mark("s", name)
	}
	return f, ok
}

// population returns the population of a 2- or 5-digit FIPS code, NaN
// when unknown.
func (l *lookup) population(fips string) float64 {
	p, ok := l.fipsPop[fips]
	if !ok {
		return math.NaN()
	}
	l.mark("f", fips)
	return p
}

func (l *lookup) mark(kind, key string) {
	if l.used == nil {
		l.used = map[string]bool{}
	}
	l.used[kind+key] = true
}

// usedOnly returns a copy of the lookup with only the entries looked up
// since it was read: what the layer file keeps.
func (l *lookup) usedOnly() *lookup {
	out := &lookup{places: map[string]lookupRow{}, stateFIPS: map[string]string{}, fipsPop: map[string]float64{}}
	for k, v := range l.places {
		if l.used["p"+k] {
			out.places[k] = v
		}
	}
	for k, v := range l.stateFIPS {
		if l.used["s"+k] {
			out.stateFIPS[k] = v
		}
	}
	for k, v := range l.fipsPop {
		if l.used["f"+k] {
			out.fipsPop[k] = v
		}
	}
	return out
}
