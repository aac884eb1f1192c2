package covid

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"testing"
	"time"
)

const usDate = "1/2/06"

func usTables(t *testing.T) (cases, deaths *csvTable) {
	t.Helper()
	return readTable(t, covidFile(t, "jhu/time_series_covid19_confirmed_US_to-2020-08-18.csv")),
		readTable(t, covidFile(t, "jhu/time_series_covid19_deaths_US_to-2020-08-18.csv"))
}

// usFirstDate is the first date column of a US table.
func usFirstDate(t *testing.T, tab *csvTable) int {
	t.Helper()
	return tab.col(t, "1/22/20")
}

func TestKentCounty(t *testing.T) {
	l, _ := buildFromCSV(t)
	cases, deaths := usTables(t)
	row := cases.one(t, "FIPS", "10001.0")
	drow := deaths.one(t, "FIPS", "10001.0")
	days, c := cases.series(t, row, usFirstDate(t, cases), usDate)
	_, d := deaths.series(t, drow, usFirstDate(t, deaths), usDate)
	want := valueOn(t, days, c, date(2020, 8, 18))

	r, ok := l.Record(CountyID("10001"), time.Time{})
	if !ok || r.BoundaryID != "USA|10|10001" {
		t.Fatalf("no Kent County record: %v %+v", ok, r)
	}
	if r.TotalCases == nil || *r.TotalCases != want || r.DateReported != "2020-08-18" {
		t.Errorf("Kent: cases %v on %s, want %d on 2020-08-18", ptr(r.TotalCases), r.DateReported, want)
	}
	if r.TotalDeaths == nil || *r.TotalDeaths != d[len(d)-1] {
		t.Errorf("Kent: deaths %v, want %d", ptr(r.TotalDeaths), d[len(d)-1])
	}
	if r.Name != "Kent" || r.CategoryCode != 902 || r.CategoryName != "admin2" || r.CountryCode != "+1" {
		t.Errorf("Kent: %+v", r)
	}
	// Population: JHU's lookup table (and the deaths file's column).
	if pop := float64(num(t, drow[deaths.col(t, "Population")])); r.Population != pop {
		t.Errorf("Kent population %v, want %v", r.Population, pop)
	}
	// Kent's count falls from 2102 to 2091 on 7/25/20: the trend of 7/31
	// sums clamped daily increases.
	on := date(2020, 7, 31)
	week := 7 * 24 * time.Hour
	last := handNew(t, days, c, on.Add(-week), on)
	prev := handNew(t, days, c, on.Add(-2*week), on.Add(-week))
	r, _ = l.Record("USA|10|10001", on)
	if r.CovidTrend == nil || *r.CovidTrend != handTrend(last, prev) {
		t.Errorf("Kent trend on %v = %v, want %v (%d vs %d)", on, ptr(r.CovidTrend), handTrend(last, prev), last, prev)
	}
}

// stateRowsSum sums every JHU US row of a state (counties, Unassigned,
// Out of <state>, areas without FIPS) on the last date.
func stateRowsSum(t *testing.T, tab *csvTable, state string) int64 {
	t.Helper()
	var sum int64
	last := len(tab.header) - 1
	for _, r := range tab.find(t, "Province_State", state) {
		sum += num(t, r[last])
	}
	return sum
}

func TestStates(t *testing.T) {
	cases, deaths := usTables(t)
	t.Run("JHU county sums without NYT", func(t *testing.T) {
		l, _ := buildFromCSV(t)
		for _, tt := range []struct{ state, fips string }{
			{"Delaware", "10"}, {"Utah", "49"}, {"Missouri", "29"}, {"Michigan", "26"}, {"Massachusetts", "25"},
			{"New York", "36"}, {"Puerto Rico", "72"}, {"Guam", "66"},
		} {
			r, ok := l.Record(StateID(tt.fips), time.Time{})
			if !ok {
				t.Fatalf("no state %s", tt.fips)
			}
			if want := stateRowsSum(t, cases, tt.state); r.TotalCases == nil || *r.TotalCases != want {
				t.Errorf("%s: cases %v, want the sum of its JHU rows %d", tt.state, ptr(r.TotalCases), want)
			}
			if want := stateRowsSum(t, deaths, tt.state); r.TotalDeaths == nil || *r.TotalDeaths != want {
				t.Errorf("%s: deaths %v, want %d", tt.state, ptr(r.TotalDeaths), want)
			}
			if r.Name != tt.state || r.DateReported != "2020-08-18" || r.CategoryCode != 901 {
				t.Errorf("%s: %+v", tt.state, r)
			}
		}
		for _, s := range l.Sources() {
			if s.Name == "nyt" {
				t.Error("NYT among the sources of a build without it")
			}
		}
	})
	t.Run("NYT when given", func(t *testing.T) {
		l, _ := buildWithNYT(t)
		nyt := readTable(t, covidFile(t, "nyt/us-states.csv"))
		rows := nyt.find(t, "state", "Delaware")
		lastRow := rows[len(rows)-1]
		lastDate, err := time.Parse(globalDate, lastRow[nyt.col(t, "date")])
		if err != nil {
			t.Fatal(err)
		}
		r, _ := l.Record("USA|10", time.Time{})
		if r.TotalCases == nil || *r.TotalCases != num(t, lastRow[nyt.col(t, "cases")]) ||
			r.TotalDeaths == nil || *r.TotalDeaths != num(t, lastRow[nyt.col(t, "deaths")]) ||
			r.DateReported != lastDate.Format(time.DateOnly) {
			t.Errorf("Delaware with NYT: %+v, want NYT's last row %v", r, lastRow)
		}
		// Counties still come from JHU.
		k, _ := l.Record("USA|10|10001", time.Time{})
		if k.DateReported != "2020-08-18" {
			t.Errorf("Kent with NYT loaded: %+v", k)
		}
		var hasNYT bool
		for _, a := range l.Attribution() {
			hasNYT = hasNYT || a == "Data from The New York Times"
		}
		if !hasNYT {
			t.Errorf("attribution %v lacks NYT's", l.Attribution())
		}
	})
}

// TestNotCounties: Unassigned, Out of <state> and areas without a FIPS
// code count in their state's sum (TestStates) but are no admin2 records;
// the build report lists them.
func TestNotCounties(t *testing.T) {
	l, rep := buildFromCSV(t)
	cases, _ := usTables(t)
	for _, fips := range []string{"90010", "80010", "90049", "80036", "88888", "99999"} {
		if _, ok := l.Record(CountyID(fips), time.Time{}); ok {
			t.Errorf("%s is a county record", fips)
		}
	}
	counties := 0
	for _, r := range cases.rows {
		f := strings.TrimSuffix(r[cases.col(t, "FIPS")], ".0")
		if n, err := strconv.Atoi(f); err == nil && n >= 1000 && n < 80000 {
			counties++
		}
	}
	if got := len(l.Records("USA", 2, time.Time{})); got != counties {
		t.Errorf("%d admin2 records, want the %d rows with a county FIPS", got, counties)
	}
	notAreas := strings.Builder{}
	for _, n := range rep.NotAreas {
		notAreas.WriteString(n.Row + "\n")
	}
	for _, name := range []string{"Kansas City", "Bear River", "Central Utah", "Dukes and Nantucket", "Michigan Department of Corrections (MDOC)", "Federal Correctional Institution (FCI)", "Unassigned", "Out of DE"} {
		if !strings.Contains(notAreas.String(), "name="+name) {
			t.Errorf("report does not list %s among the rows that are no county", name)
		}
	}
	var leftOut []string
	for _, n := range rep.LeftOut {
		if strings.HasPrefix(n.Row, "jhu-us-cases") {
			leftOut = append(leftOut, n.Row)
		}
	}
	if len(leftOut) != 2 || !strings.Contains(leftOut[0]+leftOut[1], "Diamond Princess") || !strings.Contains(leftOut[0]+leftOut[1], "Grand Princess") {
		t.Errorf("US rows left out %v, want the two cruise ships", leftOut)
	}
}

// TestPooledCounties: JHU files all of NYC under New York County (36061)
// and the Utah districts' and Dukes and Nantucket's cases under rows of no
// county; those counties' own rows are 0, so their case fields are
// omitted and included_in names the record that holds them.
func TestPooledCounties(t *testing.T) {
	l, _ := buildFromCSV(t)
	cases, _ := usTables(t)
	lookupTab := readTable(t, covidFile(t, "jhu/UID_ISO_FIPS_LookUp_Table.csv"))
	pop := func(fips string) float64 {
		return float64(num(t, lookupTab.one(t, "FIPS", fips)[lookupTab.col(t, "Population")]))
	}
	for _, tt := range []struct{ fips, in string }{
		{"36047", "USA|36|36061"}, {"36081", "USA|36|36061"}, {"36005", "USA|36|36061"}, {"36085", "USA|36|36061"},
		{"25007", "USA|25"}, {"25019", "USA|25"}, {"49005", "USA|49"}, {"49057", "USA|49"},
	} {
		row := cases.one(t, "FIPS", tt.fips+".0")
		if num(t, row[len(cases.header)-1]) != 0 {
			t.Fatalf("%s: JHU's row is not 0", tt.fips)
		}
		r, ok := l.Record(CountyID(tt.fips), time.Time{})
		if !ok || r.IncludedIn != tt.in || r.TotalCases != nil || r.TotalDeaths != nil || r.CovidTrend != nil || r.DateReported != "" {
			t.Errorf("%s: %+v, want no case fields and included_in %s", tt.fips, r, tt.in)
		}
		b, _ := json.Marshal(r)
		if strings.Contains(string(b), "total_cases") || !strings.Contains(string(b), `"included_in":"`+tt.in+`"`) {
			t.Errorf("%s JSON %s", tt.fips, b)
		}
	}
	// New York County holds all of NYC: its population is the five
	// boroughs' (8,336,817, JHU's own figure in the deaths file).
	ny, _ := l.Record("USA|36|36061", time.Time{})
	want := pop("36061") + pop("36047") + pop("36081") + pop("36005") + pop("36085")
	if ny.Population != want || want != 8336817 {
		t.Errorf("New York County population %v, want %v", ny.Population, want)
	}
	// A county with a genuine 0 keeps it: 0 is a value, written in JSON.
	loving, _ := l.Record(CountyID("48301"), time.Time{})
	b, _ := json.Marshal(loving)
	if loving.TotalCases == nil || *loving.TotalCases != 0 || !strings.Contains(string(b), `"total_cases":0`) {
		t.Errorf("Loving County: %s", b)
	}
}

func TestStatePopulations(t *testing.T) {
	l, _ := buildFromCSV(t)
	lookupTab := readTable(t, covidFile(t, "jhu/UID_ISO_FIPS_LookUp_Table.csv"))
	for _, tt := range []struct{ state, fips string }{{"Delaware", "10"}, {"Puerto Rico", "72"}} {
		want := float64(num(t, lookupTab.one(t, "Country_Region", "US", "Province_State", tt.state, "Admin2", "")[lookupTab.col(t, "Population")]))
		if r, _ := l.Record(StateID(tt.fips), time.Time{}); r.Population != want {
			t.Errorf("%s population %v, want %v", tt.state, r.Population, want)
		}
	}
	// Incidence: 7-day new cases per 100,000 from that population.
	cases, _ := usTables(t)
	var rows [][]int64
	var days []time.Time
	for _, r := range cases.find(t, "Province_State", "Delaware") {
		var v []int64
		days, v = cases.series(t, r, usFirstDate(t, cases), usDate)
		rows = append(rows, v)
	}
	sum := sumRows(rows)
	on := date(2020, 8, 18)
	n := handNew(t, days, sum, on.AddDate(0, 0, -7), on)
	r, _ := l.Record("USA|10", time.Time{})
	if r.Incidence == nil || math.Abs(*r.Incidence-float64(n)*1e5/r.Population) > 1e-9 {
		t.Errorf("Delaware incidence %v, want %v", ptr(r.Incidence), float64(n)*1e5/r.Population)
	}
}

// TestTerritories: US territories are states of the US series and, as
// Natural Earth has them, countries of their own.
func TestTerritories(t *testing.T) {
	l, _ := buildFromCSV(t)
	cases, _ := usTables(t)
	for _, tt := range []struct{ fips, iso3, name string }{{"72", "PRI", "Puerto Rico"}, {"66", "GUM", "Guam"}, {"78", "VIR", "Virgin Islands"}} {
		st, _ := l.Record(StateID(tt.fips), time.Time{})
		c, ok := l.Record(tt.iso3, time.Time{})
		want := stateRowsSum(t, cases, tt.name)
		if !ok || c.CategoryCode != 900 || c.TotalCases == nil || *c.TotalCases != want || *st.TotalCases != want || c.Population != st.Population {
			t.Errorf("%s: admin0 %+v, state %+v, want %d cases", tt.iso3, c, st, want)
		}
	}
	// A county FIPS written without its leading zero: 1001.0 is 01001.
	if r, ok := l.Record("USA|01|01001", time.Time{}); !ok || r.Name != "Autauga" || r.TotalCases == nil {
		t.Errorf("Autauga County: %v %+v", ok, r)
	}
}
