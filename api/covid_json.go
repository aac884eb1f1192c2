package api

import (
	"math"
	"strconv"

	"github.com/geosvc/geosvc/geo/covid"
)

// The covidv1 answers are written by hand, as the other point lookups'
// are: encoding/json's reflection (and its re-compaction of a Marshaler's
// output) cost more than the lookup itself. covid_test.go checks that
// these writers and encoding/json agree byte for byte.

// appendRecord appends r as JSON: the fields of covid.Record in its
// order, a key whose value is unknown left out.
func appendRecord(b []byte, r *covid.Record) []byte {
	b = append(b, `{"boundary_id":`...)
	b = lookupJSONString(b, r.BoundaryID)
	if r.CountryCode != "" {
		b = append(b, `,"country_code":`...)
		b = lookupJSONString(b, r.CountryCode)
	}
	if r.CountryName != "" {
		b = append(b, `,"country_name":`...)
		b = lookupJSONString(b, r.CountryName)
	}
	b = append(b, `,"category_code":`...)
	b = strconv.AppendInt(b, int64(r.CategoryCode), 10)
	b = append(b, `,"category_name":`...)
	b = lookupJSONString(b, r.CategoryName)
	b = append(b, `,"name":`...)
	b = lookupJSONString(b, r.Name)
	if r.CovidTrend != nil {
		b = append(b, `,"covid_trend":`...)
		b = appendJSONFloat(b, *r.CovidTrend)
	}
	if r.CovidDeceasedTrend != nil {
		b = append(b, `,"covid_deceased_trend":`...)
		b = appendJSONFloat(b, *r.CovidDeceasedTrend)
	}
	if r.BusinessDensity != "" {
		b = append(b, `,"business_density":`...)
		b = lookupJSONString(b, r.BusinessDensity)
	}
	if r.CovidRiskScore != "" {
		b = append(b, `,"covid_risk_score":`...)
		b = lookupJSONString(b, r.CovidRiskScore)
	}
	if r.TrendDays != 0 {
		b = append(b, `,"trend_days":`...)
		b = strconv.AppendInt(b, int64(r.TrendDays), 10)
	}
	if r.DateReported != "" {
		b = append(b, `,"date_reported":`...)
		b = lookupJSONString(b, r.DateReported)
	}
	if r.TotalCases != nil {
		b = append(b, `,"total_cases":`...)
		b = strconv.AppendInt(b, *r.TotalCases, 10)
	}
	if r.TotalDeaths != nil {
		b = append(b, `,"total_deaths":`...)
		b = strconv.AppendInt(b, *r.TotalDeaths, 10)
	}
	if r.IncludedIn != "" {
		b = append(b, `,"included_in":`...)
		b = lookupJSONString(b, r.IncludedIn)
	}
	return append(b, '}')
}

// appendRecords appends recs as a JSON array.
func appendRecords(b []byte, recs []covid.Record) []byte {
	b = append(b, '[')
	for i := range recs {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendRecord(b, &recs[i])
	}
	return append(b, ']')
}

// appendHierarchy appends the records as the object {"p0":..., "p1":...}.
func appendHierarchy(b []byte, hd hierarchyData) []byte {
	b = append(b, '{')
	for i := range hd {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `"p`...)
		b = strconv.AppendInt(b, int64(i), 10)
		b = append(b, `":`...)
		b = appendRecord(b, &hd[i])
	}
	return append(b, '}')
}

// appendJSONFloat appends v as encoding/json writes a float64: the
// shortest representation, in exponent form below 1e-6 and from 1e21 on.
func appendJSONFloat(b []byte, v float64) []byte {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return append(b, "null"...)
	}
	abs := math.Abs(v)
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		n := len(b)
		b = strconv.AppendFloat(b, v, 'e', -1, 64)
		// encoding/json writes e-07, not e-7's two-digit form: clean up
		// the exponent as it does.
		if m := len(b); m-n >= 4 && b[m-4] == 'e' && b[m-3] == '-' && b[m-2] == '0' {
			b[m-2] = b[m-1]
			b = b[:m-1]
		}
		return b
	}
	return strconv.AppendFloat(b, v, 'f', -1, 64)
}
