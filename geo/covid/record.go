package covid

import (
	"math"
	"strconv"

	"github.com/biter777/countries"
)

// categoryBase is the category_code of admin0; adminN is categoryBase+N.
const categoryBase = 900

// Record is the data of one administration: the spec's "Region data
// record". A field whose value is unknown is omitted from JSON (pointers
// and omitempty strings); 0 cases is a value and is written.
type Record struct {
	// BoundaryID is the hierarchical id, parts separated by "|" (see
	// docs/health.md): "USA", "USA|10", "USA|10|10001",
	// "USA|36|36061|10001", "CAN|Ontario".
	BoundaryID string `json:"boundary_id"`
	// CountryCode is the country's international dial code with its
	// plus sign ("+1"); omitted when unknown.
	CountryCode string `json:"country_code,omitempty"`
	// CountryName is the country's English name.
	CountryName string `json:"country_name,omitempty"`
	// CategoryCode is 900 + the admin level; CategoryName "admin0".."admin8".
	CategoryCode int    `json:"category_code"`
	CategoryName string `json:"category_name"`
	// Name is the administration's name as the source gives it.
	Name string `json:"name"`
	// CovidTrend and CovidDeceasedTrend are the change of new cases
	// (deaths) in the last TrendDays against the TrendDays before, in
	// percent.
	CovidTrend         *float64 `json:"covid_trend,omitempty"`
	CovidDeceasedTrend *float64 `json:"covid_deceased_trend,omitempty"`
	// BusinessDensity is businesses per km² (a number in a string), when
	// the area's geometry lay inside the OSM extract at build time.
	BusinessDensity string `json:"business_density,omitempty"`
	// CovidRiskScore is the risk score, 1 to 100 (a number in a string).
	CovidRiskScore string `json:"covid_risk_score,omitempty"`
	// TrendDays is the window of the trends in days; present with a trend.
	TrendDays int `json:"trend_days,omitempty"`
	// DateReported is the day of the data (YYYY-MM-DD): the last day of
	// the area's series, or the requested date.
	DateReported string `json:"date_reported,omitempty"`
	// TotalCases and TotalDeaths are the cumulative counts on that day.
	TotalCases  *int64 `json:"total_cases,omitempty"`
	TotalDeaths *int64 `json:"total_deaths,omitempty"`
	// IncludedIn is the boundary_id of the record whose totals hold this
	// area's cases when the source files them there (New York City's
	// boroughs under New York County): the case fields are then omitted
	// rather than a false 0. An extension of the spec's record.
	IncludedIn string `json:"included_in,omitempty"`

	// Population is the population the incidence is computed with, 0
	// when unknown.
	Population float64 `json:"-"`
	// Incidence is the number of new cases in the last 7 days per 100,000
	// people, nil when unknown; Density the business density, 0 when
	// unknown. Both feed the risk score of tiles (TileData).
	Incidence *float64 `json:"-"`
	Density   float64  `json:"-"`
}

// categoryNames are "admin0".."admin8".
var categoryNames = [...]string{"admin0", "admin1", "admin2", "admin3", "admin4", "admin5", "admin6", "admin7", "admin8"}

// record assembles the record of area i on day d (noDay: the area's last
// day).
func (l *Layer) record(i int, d day) Record {
	a := l.areas[i]
	ci := l.countryOf[a.iso3]
	r := Record{
		BoundaryID:   a.id,
		CountryCode:  ci.DialCode,
		CountryName:  ci.Name,
		CategoryCode: categoryBase + a.level,
		CategoryName: categoryNames[a.level],
		Name:         a.name,
		IncludedIn:   a.includedIn,
	}
	if a.population > 0 {
		r.Population = a.population
	}
	dens := l.densityOf[i]
	if dens > 0 {
		r.Density = dens
		r.BusinessDensity = formatNumber(dens)
	}
	if d == noDay {
		d = l.lastDay[i]
	}
	if d == noDay || !l.areaCovers(i, d) {
		return r
	}
	st := l.stats(i, d)
	r.DateReported = d.String()
	if st.hasCases {
		r.TotalCases = &st.totalCases
	}
	if st.hasDeaths {
		r.TotalDeaths = &st.totalDeaths
	}
	if st.hasTrend {
		r.CovidTrend = &st.trend
		r.TrendDays = st.trendDays
	}
	if st.hasDeathTrend {
		r.CovidDeceasedTrend = &st.deathTrend
		if r.TrendDays == 0 {
			r.TrendDays = st.deathTrendDays
		}
	}
	if st.hasIncidence {
		inc := st.incidence
		r.Incidence = &inc
		score := riskScore(inc, st.trend, st.hasTrend, dens, l.medians[countryLevel{a.iso3, a.level}])
		r.CovidRiskScore = formatNumber(score)
	}
	return r
}

// areaCovers reports whether one of area i's series covers day d.
func (l *Layer) areaCovers(i int, d day) bool {
	for _, s := range l.ser[i] {
		if s != nil {
			if _, ok := s.index(d); ok {
				return true
			}
		}
	}
	return false
}

// countryInfo returns the English name and dial code ("+1") of an ISO3
// country, "" for what biter777/countries does not know.
func countryInfo(iso3 string) (name, dial string) {
	c := countries.ByName(iso3)
	if c == countries.Unknown {
		return "", ""
	}
	if cc := c.CallCodes(); len(cc) > 0 && cc[0] != countries.CallCodeUnknown {
		dial = cc[0].String()
	}
	return c.String(), dial
}

// formatNumber formats a density or score as the spec's "string holding a
// number": 4 significant digits, no exponent ("1234", "12.35", "0.004123").
func formatNumber(v float64) string {
	if v == 0 || math.IsNaN(v) || math.IsInf(v, 0) {
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	mag := int(math.Floor(math.Log10(math.Abs(v))))
	dec := max(0, 3-mag)
	p := math.Pow10(dec)
	return strconv.FormatFloat(math.Round(v*p)/p, 'f', -1, 64)
}
