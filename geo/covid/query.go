package covid

import (
	"sort"
	"time"

	"github.com/paulmach/orb"
	"github.com/paulmach/orb/maptile"
)

// Country is an entry of the country list: a country the layer has an
// admin0 record for.
type Country struct {
	ISO3 string `json:"ISO3"`
	Name string `json:"name"`
	// DialCode is the international dial code with its plus sign ("+1"),
	// "" when unknown.
	DialCode string `json:"dial_code"`
}

// buildCountries lists the admin0 records' countries by name.
func (l *Layer) buildCountries() []Country {
	var out []Country
	for _, a := range l.areas {
		if a.level != 0 {
			continue
		}
		name, dial := countryInfo(a.iso3)
		if name == "" {
			name = a.name
		}
		out = append(out, Country{ISO3: a.iso3, Name: name, DialCode: dial})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Name != out[j].Name {
			return out[i].Name < out[j].Name
		}
		return out[i].ISO3 < out[j].ISO3
	})
	return out
}

// Countries returns the countries the layer has data for (an admin0
// record), sorted by name. The slice is shared: do not modify it.
func (l *Layer) Countries() []Country { return l.countries }

// asOfDay turns an asOf date into a day; the zero time is noDay (each
// record's latest day).
func asOfDay(asOf time.Time) day {
	if asOf.IsZero() {
		return noDay
	}
	return dayOf(asOf)
}

// Records returns the records of every administration of the country at
// that admin level, sorted by boundary_id. iso3 may be any code
// biter777/countries knows (ISO3, ISO2, JHU's XKS). asOf is the day of the
// data (its calendar date counts; zero: each record's latest day); a
// record whose series do not cover asOf has no case fields.
func (l *Layer) Records(iso3 string, level int, asOf time.Time) []Record {
	ids := l.byLevel[countryLevel{canonicalISO3(iso3), level}]
	d := asOfDay(asOf)
	out := make([]Record, len(ids))
	for k, i := range ids {
		out[k] = l.record(i, d)
	}
	return out
}

// Levels returns the admin levels the layer has records of for the
// country, ascending.
func (l *Layer) Levels(iso3 string) []int {
	iso3 = canonicalISO3(iso3)
	var out []int
	for lv := 0; lv <= 8; lv++ {
		if len(l.byLevel[countryLevel{iso3, lv}]) > 0 {
			out = append(out, lv)
		}
	}
	return out
}

// Record returns the record of the given boundary_id on asOf (zero: its
// latest day).
func (l *Layer) Record(id string, asOf time.Time) (Record, bool) {
	i, ok := l.byID[id]
	if !ok {
		return Record{}, false
	}
	return l.record(i, asOfDay(asOf)), true
}

// Covers reports whether some series of the layer covers asOf's date. The
// API answers 400 to a date no series covers; a covered date still leaves
// records whose own series end earlier without case fields.
func (l *Layer) Covers(asOf time.Time) bool {
	d := dayOf(asOf)
	i := sort.Search(len(l.covered), func(i int) bool { return l.covered[i].to >= d })
	return i < len(l.covered) && l.covered[i].from <= d
}

// Start returns the earliest date any series of the layer covers
// (midnight UTC), the zero time for an empty layer.
func (l *Layer) Start() time.Time {
	if len(l.covered) == 0 {
		return time.Time{}
	}
	return l.covered[0].from.time()
}

// Timestamp returns the latest date of the layer's data (midnight UTC),
// the zero time for an empty layer.
func (l *Layer) Timestamp() time.Time {
	if l.timestamp == noDay {
		return time.Time{}
	}
	return l.timestamp.time()
}

// TrendDays returns the window of the trends in days.
func (l *Layer) TrendDays() int { return l.cfg.TrendDays }

// Sources returns the sources of the layer's data with their attribution,
// licence and version (the last date of their data), by name.
func (l *Layer) Sources() []SourceInfo {
	return append([]SourceInfo(nil), l.meta.Sources...)
}

// Attribution returns the attribution strings of the layer's sources with
// their licences, e.g. "COVID-19 Data Repository by the Center for Systems
// Science and Engineering (CSSE) at Johns Hopkins University, CC BY 4.0".
func (l *Layer) Attribution() []string {
	out := make([]string, len(l.meta.Sources))
	for i, s := range l.meta.Sources {
		out[i] = s.Attribution
	}
	return out
}

// ZIPAreaAt returns the boundary_id of the ZIP area (admin8) whose polygon
// holds p, false when none does.
func (l *Layer) ZIPAreaAt(p orb.Point) (string, bool) {
	for _, i := range l.withPoly {
		if a := l.areas[i]; l.polys[a.poly].contains(p) {
			return a.id, true
		}
	}
	return "", false
}

// DensityAt returns the business density of tile t (businesses per km² of
// ground, see tileAreaKm2). ok is false when the layer has no density
// grid, the tile is not inside the extract's bounds, or it holds no
// business.
func (l *Layer) DensityAt(t maptile.Tile) (float64, bool) { return l.density.densityAt(t) }

// DensityOfArea returns the business density of an area: the businesses
// inside geometry per km² of its ground area. ok is false when the layer
// has no density grid, the geometry does not lie inside the extract's
// bounds, or it holds no business.
func (l *Layer) DensityOfArea(geometry orb.MultiPolygon) (float64, bool) {
	return l.density.densityOfArea(geometry)
}

// DensityBounds returns the bounds of the extract the density grid was
// built from; ok is false when the layer has no grid.
func (l *Layer) DensityBounds() (orb.Bound, bool) {
	if l.density == nil {
		return orb.Bound{}, false
	}
	return l.density.bounds, true
}

// TileData is what a tile feature carries of the health layer: its
// business density and its risk score (numbers in strings, omitted when
// unknown).
type TileData struct {
	BusinessDensity string `json:"business_density,omitempty"`
	CovidRiskScore  string `json:"covid_risk_score,omitempty"`
}

// TileData returns tile t's business density and the risk score of rec's
// case numbers with the tile's density (relative to the median density of
// the tiles of that zoom). The score is omitted when rec has no
// incidence; the density when DensityAt has none.
func (l *Layer) TileData(t maptile.Tile, rec Record) TileData {
	var td TileData
	dens, ok := l.DensityAt(t)
	if ok {
		td.BusinessDensity = formatNumber(dens)
	}
	if rec.Incidence == nil {
		return td
	}
	trend, hasTrend := 0.0, rec.CovidTrend != nil
	if hasTrend {
		trend = *rec.CovidTrend
	}
	ref := 0.0
	if ok && l.density != nil {
		ref = l.density.tileMedian[t.Z]
	}
	td.CovidRiskScore = formatNumber(riskScore(*rec.Incidence, trend, hasTrend, dens, ref))
	return td
}
