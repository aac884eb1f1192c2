package covid

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
	"time"
)

const globalDate = "1/2/2006"

// globalTables reads JHU's global confirmed and deaths files.
func globalTables(t *testing.T) (cases, deaths *csvTable) {
	t.Helper()
	return readTable(t, covidFile(t, "jhu/time_series_covid19_confirmed_global.csv")),
		readTable(t, covidFile(t, "jhu/time_series_covid19_deaths_global.csv"))
}

// globalRow returns a country's (or province's) row values.
func globalRow(t *testing.T, tab *csvTable, country, province string) ([]time.Time, []int64) {
	t.Helper()
	return tab.series(t, tab.one(t, "Country", country, "Province", province), 4, globalDate)
}

func TestCountryFinalTotals(t *testing.T) {
	l, _ := buildFromCSV(t)
	cases, deaths := globalTables(t)
	for _, tt := range []struct{ country, id string }{
		{"Portugal", "PRT"},
		{"Andorra", "AND"},
		{"Monaco", "MCO"},
	} {
		t.Run(tt.country, func(t *testing.T) {
			_, c := globalRow(t, cases, tt.country, "")
			_, d := globalRow(t, deaths, tt.country, "")
			r, ok := l.Record(tt.id, time.Time{})
			if !ok {
				t.Fatalf("no record %s", tt.id)
			}
			if r.TotalCases == nil || *r.TotalCases != c[len(c)-1] {
				t.Errorf("total_cases = %v, want %d", ptr(r.TotalCases), c[len(c)-1])
			}
			if r.TotalDeaths == nil || *r.TotalDeaths != d[len(d)-1] {
				t.Errorf("total_deaths = %v, want %d", ptr(r.TotalDeaths), d[len(d)-1])
			}
			if r.DateReported != "2023-03-09" || r.CategoryCode != 900 || r.CategoryName != "admin0" {
				t.Errorf("date %s, category %d %s", r.DateReported, r.CategoryCode, r.CategoryName)
			}
		})
	}
}

func ptr[T any](p *T) any {
	if p == nil {
		return nil
	}
	return *p
}

func TestCountryTrend(t *testing.T) {
	l, _ := buildFromCSV(t)
	cases, deaths := globalTables(t)
	lookupTab := readTable(t, covidFile(t, "jhu/UID_ISO_FIPS_LookUp_Table.csv"))
	for _, tt := range []struct {
		name, country, id string
		on                time.Time
	}{
		{"Portugal in its January 2021 wave", "Portugal", "PRT", date(2021, 1, 20)},
		{"Portugal across its 5/2/2020 correction", "Portugal", "PRT", date(2020, 5, 5)},
		// Monaco's count falls from 16108 to 16106 on 2/28/2023, inside
		// the earlier window: that day adds 0 new cases, not -2.
		{"Monaco at the end, across a correction", "Monaco", "MCO", date(2023, 3, 9)},
		{"Andorra", "Andorra", "AND", date(2022, 1, 10)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			days, c := globalRow(t, cases, tt.country, "")
			ddays, d := globalRow(t, deaths, tt.country, "")
			n := 7 * 24 * time.Hour
			last := handNew(t, days, c, tt.on.Add(-n), tt.on)
			prev := handNew(t, days, c, tt.on.Add(-2*n), tt.on.Add(-n))
			dlast := handNew(t, ddays, d, tt.on.Add(-n), tt.on)
			dprev := handNew(t, ddays, d, tt.on.Add(-2*n), tt.on.Add(-n))
			r, _ := l.Record(tt.id, tt.on)
			if r.CovidTrend == nil || *r.CovidTrend != handTrend(last, prev) {
				t.Errorf("covid_trend = %v, want %v (new %d vs %d)", ptr(r.CovidTrend), handTrend(last, prev), last, prev)
			}
			if r.CovidDeceasedTrend == nil || *r.CovidDeceasedTrend != handTrend(dlast, dprev) {
				t.Errorf("covid_deceased_trend = %v, want %v", ptr(r.CovidDeceasedTrend), handTrend(dlast, dprev))
			}
			if r.TrendDays != 7 || r.DateReported != tt.on.Format(time.DateOnly) {
				t.Errorf("trend_days %d, date %s", r.TrendDays, r.DateReported)
			}
			if got, want := *r.TotalCases, valueOn(t, days, c, tt.on); got != want {
				t.Errorf("total_cases on %v = %d, want %d", tt.on, got, want)
			}
			// Risk score by hand from the same numbers.
			pop := float64(num(t, lookupTab.one(t, "Country_Region", tt.country, "Province_State", "", "Admin2", "")[lookupTab.col(t, "Population")]))
			inc := float64(last) * 1e5 / pop
			ft := math.Max(0.5, math.Min(1.5, 1+handTrend(last, prev)/200))
			want := math.Round((1+99*math.Min(1, inc/(inc+100)*ft))*100) / 100
			if r.CovidRiskScore != formatNumber(want) {
				t.Errorf("covid_risk_score = %s, want %v (incidence %.2f)", r.CovidRiskScore, want, inc)
			}
		})
	}
}

func TestMonacoCorrectionKeepsTotal(t *testing.T) {
	l, _ := buildFromCSV(t)
	cases, _ := globalTables(t)
	days, c := globalRow(t, cases, "Monaco", "")
	on := date(2023, 2, 28)
	if valueOn(t, days, c, on) >= valueOn(t, days, c, on.AddDate(0, 0, -1)) {
		t.Fatal("the fixture lost its correction")
	}
	r, _ := l.Record("MCO", on)
	if *r.TotalCases != valueOn(t, days, c, on) {
		t.Errorf("total on the day of the correction = %d, want the value as given %d", *r.TotalCases, valueOn(t, days, c, on))
	}
	// In the trend of 2023-03-09 the correction lies in the earlier
	// window, where clamping makes a difference.
	end := date(2023, 3, 2)
	raw := valueOn(t, days, c, end) - valueOn(t, days, c, end.AddDate(0, 0, -7))
	clamped := handNew(t, days, c, end.AddDate(0, 0, -7), end)
	if clamped == raw {
		t.Errorf("clamped new cases %d equal the raw difference: the window has no correction", clamped)
	}
}

// TestSummedAdmin0 checks the admin0 rule: a country's own row when it has
// one, else the sum of its rows, territories with their own ISO3 apart.
func TestSummedAdmin0(t *testing.T) {
	l, _ := buildFromCSV(t)
	cases, _ := globalTables(t)
	last := len(cases.header) - 1
	rowsOf := func(country string, skip ...string) int64 {
		var sum int64
	next:
		for _, r := range cases.find(t, "Country", country) {
			for _, s := range skip {
				if r[0] == s {
					continue next
				}
			}
			sum += num(t, r[last])
		}
		return sum
	}
	one := func(country, province string) int64 {
		return num(t, cases.one(t, "Country", country, "Province", province)[last])
	}
	for _, tt := range []struct {
		id   string
		want int64
	}{
		{"CAN", rowsOf("Canada")},
		{"AUS", rowsOf("Australia")},
		// China: every mainland row and Unknown; Hong Kong and Macau are
		// admin0 records of their own (Natural Earth's HKG and MAC) and
		// not counted again in China's total.
		{"CHN", rowsOf("China", "Hong Kong", "Macau")},
		{"HKG", one("China", "Hong Kong")},
		{"MAC", one("China", "Macau")},
		// Countries with a row of their own: that row, territories apart.
		{"DNK", one("Denmark", "")},
		{"GRL", one("Denmark", "Greenland")},
		{"FRO", one("Denmark", "Faroe Islands")},
		{"FRA", one("France", "")},
		{"PYF", one("France", "French Polynesia")},
		{"GBR", one("United Kingdom", "")},
		{"NLD", one("Netherlands", "")},
		{"ABW", one("Netherlands", "Aruba")},
		{"NIU", one("New Zealand", "Niue")},
		{"PCN", one("United Kingdom", "Pitcairn Islands")},
	} {
		t.Run(tt.id, func(t *testing.T) {
			r, ok := l.Record(tt.id, time.Time{})
			if !ok || r.TotalCases == nil {
				t.Fatalf("no record %s with cases", tt.id)
			}
			if *r.TotalCases != tt.want {
				t.Errorf("total_cases %d, want %d", *r.TotalCases, tt.want)
			}
			if r.CategoryCode != 900 {
				t.Errorf("category %d", r.CategoryCode)
			}
		})
	}
	// The provinces are admin1 records under the country JHU files them in.
	for _, tt := range []struct{ id, country, province string }{
		{"CAN|Ontario", "Canada", "Ontario"},
		{"CHN|Hong Kong", "China", "Hong Kong"},
		{"FRA|French Polynesia", "France", "French Polynesia"},
		{"GBR|Channel Islands", "United Kingdom", "Channel Islands"},
		{"AUS|Victoria", "Australia", "Victoria"},
	} {
		r, ok := l.Record(tt.id, time.Time{})
		if !ok || r.TotalCases == nil || *r.TotalCases != one(tt.country, tt.province) || r.CategoryCode != 901 {
			t.Errorf("%s: %+v, want admin1 with %d cases", tt.id, r, one(tt.country, tt.province))
		}
	}
	// Rows that are no province are no record.
	for _, id := range []string{"CHN|Unknown", "CAN|Diamond Princess", "CAN|Grand Princess", "CAN|Repatriated Travellers"} {
		if _, ok := l.Record(id, time.Time{}); ok {
			t.Errorf("%s is a record", id)
		}
	}
	if got := len(l.Records("CAN", 1, time.Time{})); got != 13 {
		t.Errorf("Canada has %d admin1 records, want its 13 provinces and territories", got)
	}
}

// TestJHUCountryNames maps JHU's names through the lookup table and the
// config, and leaves out what is no country.
func TestJHUCountryNames(t *testing.T) {
	l, rep := buildFromCSV(t)
	cases, _ := globalTables(t)
	last := len(cases.header) - 1
	for _, tt := range []struct{ jhu, id string }{
		{"Korea, South", "KOR"},
		{"Taiwan*", "TWN"},
		{"US", "USA"},
		{"Burma", "MMR"},
		{"Congo (Kinshasa)", "COD"},
		{"Congo (Brazzaville)", "COG"},
		{"Korea, North", "PRK"}, // not in the lookup table: config
		{"Nauru", "NRU"},        // config
		{"Tuvalu", "TUV"},       // config
		{"Kosovo", "XKX"},       // JHU's XKS, canonical XKX
		{"Antarctica", "ATA"},
		{"Holy See", "VAT"},
		{"West Bank and Gaza", "PSE"},
		{"Cote d'Ivoire", "CIV"},
	} {
		t.Run(tt.jhu, func(t *testing.T) {
			r, ok := l.Record(tt.id, time.Time{})
			want := num(t, cases.one(t, "Country", tt.jhu, "Province", "")[last])
			if !ok || r.TotalCases == nil || *r.TotalCases != want {
				t.Fatalf("%s: record %v %+v, want %d cases", tt.id, ok, r, want)
			}
		})
	}
	leftOut := map[string]bool{}
	for _, n := range rep.LeftOut {
		for _, s := range []string{"Diamond Princess", "MS Zaandam", "Summer Olympics 2020", "Winter Olympics 2022"} {
			if strings.Contains(n.Row, "country="+s+")") {
				leftOut[s] = true
			}
		}
	}
	if len(leftOut) != 4 {
		t.Errorf("left out %v, want the two ships and the two Olympic Games", leftOut)
	}
	for _, c := range l.Countries() {
		if strings.Contains(c.Name, "Princess") || strings.Contains(c.Name, "Olympics") || strings.Contains(c.Name, "Zaandam") {
			t.Errorf("country list has %v", c)
		}
	}
}

func TestCountriesList(t *testing.T) {
	l, _ := buildFromCSV(t)
	cs := l.Countries()
	byISO := map[string]Country{}
	for i, c := range cs {
		byISO[c.ISO3] = c
		if i > 0 && cs[i-1].Name > c.Name {
			t.Errorf("not sorted by name at %v", c)
		}
	}
	for _, want := range []Country{
		{"USA", "United States", "+1"},
		{"PRT", "Portugal", "+351"},
		{"AND", "Andorra", "+376"},
		{"HKG", "Hong Kong (Special Administrative Region of China)", "+852"},
	} {
		if byISO[want.ISO3] != want {
			t.Errorf("%s: %+v, want %+v", want.ISO3, byISO[want.ISO3], want)
		}
	}
	b, _ := json.Marshal(byISO["USA"])
	if string(b) != `{"ISO3":"USA","name":"United States","dial_code":"+1"}` {
		t.Errorf("JSON %s", b)
	}
	if got := l.Levels("USA"); len(got) != 4 || got[0] != 0 || got[1] != 1 || got[2] != 2 || got[3] != 8 {
		t.Errorf("Levels(USA) = %v, want [0 1 2 8]", got)
	}
}
