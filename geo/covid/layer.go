package covid

import (
	"fmt"
	"math"
	"sort"
)

// Layer is the health layer: the records of every administration a data
// set covers, their case series, the NYC ZIP area polygons and, when built
// from an OSM extract, the business density grid. It is read-only and
// safe for concurrent use.
type Layer struct {
	// What the layer file stores.
	cfgYAML []byte
	meta    fileMeta
	lk      *lookup
	rows    []rawRow
	polys   []polygon
	density *grid
	// areaDensity is the business density of records whose geometry was
	// known at build time, by id.
	areaDensity map[string]float64

	// Derived on compile.
	cfg       *config
	ds        *datasetConfig
	areas     []*area
	byID      map[string]int
	byLevel   map[countryLevel][]int
	ser       [][numMeasures]*series
	lastDay   []day
	densityOf []float64 // per area, NaN when unknown
	medians   map[countryLevel]float64
	withPoly  []int // areas with a polygon
	covered   []span
	timestamp day
	countries []Country
	countryOf map[string]Country // by ISO3, for every area's country
}

// countryLevel keys the records of one country at one admin level.
type countryLevel struct {
	iso3  string
	level int
}

// span is a closed interval of days.
type span struct{ from, to day }

// fileMeta is the layer file's JSON metadata.
type fileMeta struct {
	// Dataset is the data set's name ("covid") and Title its disease.
	Dataset string `json:"dataset"`
	Title   string `json:"title"`
	// Sources are the sources whose data the layer holds.
	Sources []SourceInfo `json:"sources"`
	// Inputs are the inputs the layer holds, with their date ranges.
	Inputs []InputReport `json:"inputs"`
}

// SourceInfo is one source of the layer's data, for attribution.
type SourceInfo struct {
	// Name is the source's key in health.yaml (jhu, nyc, nyt).
	Name string `json:"name"`
	// Attribution is the credit line to show ("NYC DOHMH").
	Attribution string `json:"attribution"`
	// Licence is the source's licence or terms.
	Licence string `json:"licence"`
	// Redistributable is false for data that may not be shipped (NYT).
	Redistributable bool `json:"redistributable"`
	// Version is the last date of the source's data in the layer
	// (YYYY-MM-DD): the data are final, so their end date versions them.
	Version string `json:"version"`
}

// compile resolves the rows into areas and builds every index.
func (l *Layer) compile() error {
	cfg, err := parseConfig(l.cfgYAML)
	if err != nil {
		return err
	}
	ds, ok := cfg.dataset(l.meta.Dataset)
	if !ok {
		return fmt.Errorf("health: data set %q not in the configuration", l.meta.Dataset)
	}
	l.cfg, l.ds = cfg, ds
	areas, _, err := resolve(ds, l.lk, l.rows, l.polys)
	if err != nil {
		return fmt.Errorf("health: %w", err)
	}
	l.areas = areas
	return l.index()
}

// index materializes the areas' series and builds the lookup indexes.
func (l *Layer) index() error {
	n := len(l.areas)
	l.byID = make(map[string]int, n)
	l.byLevel = map[countryLevel][]int{}
	l.withPoly = nil
	l.ser = make([][numMeasures]*series, n)
	l.lastDay = make([]day, n)
	l.densityOf = make([]float64, n)
	var spans []span
	for i, a := range l.areas {
		l.byID[a.id] = i
		if a.poly >= 0 {
			l.withPoly = append(l.withPoly, i)
		}
		k := countryLevel{a.iso3, a.level}
		l.byLevel[k] = append(l.byLevel[k], i)
		l.lastDay[i] = noDay
		for m, parts := range a.parts {
			if len(parts) == 0 {
				continue
			}
			ps := make([]*series, len(parts))
			for j, ri := range parts {
				ps[j] = l.rows[ri].s
			}
			s, err := sumSeries(ps)
			if err != nil {
				return fmt.Errorf("health: %s %s: %w", a.id, measureNames[m], err)
			}
			l.ser[i][m] = s
			if last := s.last(); last != noDay {
				l.lastDay[i] = max(l.lastDay[i], last)
				spans = append(spans, span{s.start, last})
			}
		}
		l.densityOf[i] = math.NaN()
		if d, ok := l.areaDensity[a.id]; ok {
			l.densityOf[i] = d
		}
	}
	l.covered = mergeSpans(spans)
	l.timestamp = noDay
	if len(l.covered) > 0 {
		l.timestamp = l.covered[len(l.covered)-1].to
	}
	l.medians = map[countryLevel]float64{}
	for k, ids := range l.byLevel {
		var ds []float64
		for _, i := range ids {
			if d := l.densityOf[i]; d > 0 {
				ds = append(ds, d)
			}
		}
		if len(ds) > 0 {
			l.medians[k] = median(ds)
		}
	}
	l.countryOf = map[string]Country{}
	for _, a := range l.areas {
		if _, ok := l.countryOf[a.iso3]; !ok {
			name, dial := countryInfo(a.iso3)
			l.countryOf[a.iso3] = Country{ISO3: a.iso3, Name: name, DialCode: dial}
		}
	}
	l.countries = l.buildCountries()
	return nil
}

// mergeSpans returns the union of spans as sorted disjoint spans
// (adjacent days merge).
func mergeSpans(spans []span) []span {
	sort.Slice(spans, func(i, j int) bool { return spans[i].from < spans[j].from })
	var out []span
	for _, s := range spans {
		if len(out) > 0 && s.from <= out[len(out)-1].to+1 {
			out[len(out)-1].to = max(out[len(out)-1].to, s.to)
			continue
		}
		out = append(out, s)
	}
	return out
}

// median returns the median of v (sorted in place).
func median(v []float64) float64 {
	sort.Float64s(v)
	n := len(v)
	if n%2 == 1 {
		return v[n/2]
	}
	return (v[n/2-1] + v[n/2]) / 2
}
