package covid

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/paulmach/orb"
)

func TestNYCZIPArea(t *testing.T) {
	l, _ := buildFromCSV(t)
	totals := readTable(t, covidFile(t, "nyc/data-by-modzcta.csv"))
	row := totals.one(t, "MODIFIED_ZCTA", "10001")

	id, ok := l.ZIPAreaAt(orb.Point{-73.9971, 40.7507})
	if !ok || id != "USA|36|36061|10001" {
		t.Fatalf("ZIPAreaAt(-73.9971, 40.7507) = %q %v, want USA|36|36061|10001", id, ok)
	}
	r, _ := l.Record(id, time.Time{})
	if r.TotalCases == nil || *r.TotalCases != num(t, row[totals.col(t, "COVID_CASE_COUNT")]) ||
		r.TotalDeaths == nil || *r.TotalDeaths != num(t, row[totals.col(t, "COVID_DEATH_COUNT")]) {
		t.Errorf("10001: %+v, want the totals of data-by-modzcta.csv %v", r, row)
	}
	pop, _ := strconv.ParseFloat(row[totals.col(t, "POP_DENOMINATOR")], 64)
	if r.Population != pop || r.CategoryCode != 908 || r.Name != "10001, 10118" {
		t.Errorf("10001: population %v (want %v), %+v", r.Population, pop, r)
	}
	// The totals are as of the last week of the trends (the files carry
	// no other date).
	if r.DateReported != "2025-10-11" {
		t.Errorf("10001 date %s", r.DateReported)
	}
	// The parent of a ZIP area is its borough's county.
	for _, tt := range []struct {
		p  orb.Point
		id string
	}{
		{orb.Point{-73.9903, 40.6936}, "USA|36|36047|11201"}, // Brooklyn Heights
		{orb.Point{-73.8448, 40.7214}, "USA|36|36081|11375"}, // Forest Hills, Queens
	} {
		if got, ok := l.ZIPAreaAt(tt.p); !ok || got != tt.id {
			t.Errorf("ZIPAreaAt(%v) = %q, want %s", tt.p, got, tt.id)
		}
	}
	if _, ok := l.ZIPAreaAt(orb.Point{-75.5244, 39.1582}); ok {
		t.Error("Dover is in a NYC ZIP area")
	}
	if got := len(l.Records("USA", 8, time.Time{})); got != len(totals.rows) {
		t.Errorf("%d admin8 records, want the %d areas of the totals", got, len(totals.rows))
	}
	for _, r := range l.Records("USA", 8, time.Time{}) {
		if strings.HasSuffix(r.BoundaryID, "|99999") {
			t.Errorf("record for the excluded MODZCTA: %s", r.BoundaryID)
		}
	}
}

// TestNYCWeeklyTrend: NYC's ZIP areas have weekly case rates per 100,000;
// their trend compares the last week with the week before and their 7-day
// incidence is the last week's rate.
func TestNYCWeeklyTrend(t *testing.T) {
	l, _ := buildFromCSV(t)
	rates := readTable(t, covidFile(t, "nyc/caserate-by-modzcta.csv"))
	rate := func(week, zip string) float64 {
		v, err := strconv.ParseFloat(rates.one(t, "week_ending", week)[rates.col(t, "CASERATE_"+zip)], 64)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	for _, tt := range []struct {
		zip, id    string
		asOf       time.Time
		week, prev string
	}{
		{"10001", "USA|36|36061|10001", date(2022, 1, 8), "01/08/2022", "01/01/2022"},
		// A Wednesday: the last complete week is still the one ending on
		// Saturday 01/08.
		{"10001", "USA|36|36061|10001", date(2022, 1, 12), "01/08/2022", "01/01/2022"},
		{"11201", "USA|36|36047|11201", date(2022, 1, 8), "01/08/2022", "01/01/2022"},
	} {
		t.Run(tt.zip+" "+tt.asOf.Format(time.DateOnly), func(t *testing.T) {
			last, prev := rate(tt.week, tt.zip), rate(tt.prev, tt.zip)
			want := math.Round(100*(last-prev)/prev*100) / 100
			r, _ := l.Record(tt.id, tt.asOf)
			if r.CovidTrend == nil || *r.CovidTrend != want || r.TrendDays != 7 {
				t.Errorf("trend %v over %d days, want %v", ptr(r.CovidTrend), r.TrendDays, want)
			}
			if r.Incidence == nil || math.Abs(*r.Incidence-last) > 1e-9 {
				t.Errorf("incidence %v, want the week's rate %v", ptr(r.Incidence), last)
			}
			// Totals exist only on their own date.
			if r.TotalCases != nil || r.DateReported != tt.asOf.Format(time.DateOnly) {
				t.Errorf("totals %v on %s", ptr(r.TotalCases), r.DateReported)
			}
			if r.CovidDeceasedTrend != nil {
				t.Error("a deceased trend from no death series")
			}
		})
	}
	// A week DOHMH suppressed (empty cell) leaves the trend unknown.
	if rates.one(t, "week_ending", "10/11/2025")[rates.col(t, "CASERATE_10001")] != "" {
		t.Fatal("fixture: 10001's last week is no longer empty")
	}
	r, _ := l.Record("USA|36|36061|10001", time.Time{})
	b, _ := json.Marshal(r)
	if r.CovidTrend != nil || r.CovidRiskScore != "" || strings.Contains(string(b), "covid_trend") {
		t.Errorf("10001 latest: %s, want no trend and no score", b)
	}
}

func TestAsOf(t *testing.T) {
	l, _ := buildFromCSV(t)
	for _, tt := range []struct {
		name  string
		id    string
		asOf  time.Time
		cases bool
	}{
		{"county before its first case: 0 is a value", "USA|10|10001", date(2020, 2, 1), true},
		{"county after its series ends", "USA|10|10001", date(2021, 1, 1), false},
		{"country inside its series", "PRT", date(2021, 6, 1), true},
		{"country before JHU's first day", "PRT", date(2020, 1, 21), false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r, _ := l.Record(tt.id, tt.asOf)
			if (r.TotalCases != nil) != tt.cases || (r.DateReported != "") != tt.cases {
				t.Errorf("%+v, case fields %v", r, tt.cases)
			}
			if tt.cases && r.DateReported != tt.asOf.Format(time.DateOnly) {
				t.Errorf("date_reported %s", r.DateReported)
			}
		})
	}
	for _, tt := range []struct {
		d    time.Time
		want bool
	}{
		{date(2020, 1, 21), false},
		{date(2020, 1, 22), true},
		{date(2024, 6, 1), true}, // NYC's weekly rates
		{date(2025, 10, 11), true},
		{date(2025, 10, 12), false},
	} {
		if got := l.Covers(tt.d); got != tt.want {
			t.Errorf("Covers(%v) = %v", tt.d, got)
		}
	}
	if ts := l.Timestamp(); !ts.Equal(date(2025, 10, 11)) {
		t.Errorf("Timestamp %v", ts)
	}
	// The calendar date of asOf counts, in its own location.
	ny, _ := time.LoadLocation("America/New_York")
	r1, _ := l.Record("PRT", time.Date(2021, 6, 1, 23, 30, 0, 0, ny))
	r2, _ := l.Record("PRT", date(2021, 6, 1))
	if r1.DateReported != r2.DateReported || *r1.TotalCases != *r2.TotalCases {
		t.Errorf("asOf in New York %+v, UTC %+v", r1, r2)
	}
}
