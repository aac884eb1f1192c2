package covid

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// fluConfig is a second disease described by configuration only: other
// files, other layouts (a long file with ISO dates for countries, a wide
// one with M/D/YY dates for US states), another trend window.
const fluConfig = `
trend_days: 14
business_tags: {shop: ["*"]}
datasets:
  - name: flu
    title: Influenza
    sources:
      who: {attribution: "WHO FluNet", licence: "CC BY-NC-SA 3.0 IGO", redistributable: true}
    lookup: {source: who, file: lookup.csv}
    inputs:
      - name: countries
        source: who
        file: countries.csv
        layout: long
        date_column: day
        date_format: ISO
        measures: {cases: confirmed}
        geography: jhu-global
        keys: {country: country}
      - name: states
        source: who
        file: states.csv
        layout: wide
        date_format: M/D/YY
        measure: cases
        geography: us-fips
        level: 1
        keys: {fips: fips, name: state}
    geographies:
      us-fips: {country: USA, not_county_from: 80000}
`

func TestAnotherDisease(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"lookup.csv": "UID,iso2,iso3,code3,FIPS,Admin2,Province_State,Country_Region,Lat,Long_,Combined_Key,Population\n" +
			"620,PT,PRT,620,,,,Portugal,0,0,Portugal,10000000\n" +
			"84000010,US,USA,840,10,,Delaware,US,0,0,\"Delaware, US\",1000000\n",
		"countries.csv": "day,country,confirmed\n" +
			"2024-01-01,Portugal,0\n2024-01-08,Portugal,10\n2024-01-15,Portugal,40\n2024-01-22,Portugal,70\n2024-01-29,Portugal,130\n",
		"states.csv": statesCSV(),
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	l, rep, err := Build(BuildOptions{ConfigYAML: []byte(fluConfig), Dataset: "flu", DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	// Portugal: daily cumulative series with gaps (weekly rows), so the
	// trend window must lie on days with values; on 2024-01-29 the 14-day
	// windows (01-15, 01-29] and (01-01, 01-15] end on rows.
	r, ok := l.Record("PRT", date(2024, 1, 29))
	if !ok || r.TotalCases == nil || *r.TotalCases != 130 {
		t.Fatalf("PRT: %+v", r)
	}
	// Weekly rows of a cumulative count leave the days between missing:
	// no trend rather than a guess.
	if r.CovidTrend != nil {
		t.Errorf("trend %v across days without values", *r.CovidTrend)
	}
	// Delaware: cumulative i² on day i of January (1/1 is day 0): the
	// 14-day windows hold 28²-14² = 588 and 14²-0 = 196 new cases.
	de, _ := l.Record("USA|10", time.Time{})
	if de.TotalCases == nil || *de.TotalCases != 784 || de.Population != 1e6 || de.DateReported != "2024-01-29" ||
		de.CovidTrend == nil || *de.CovidTrend != 200 || de.TrendDays != 14 {
		t.Errorf("Delaware: %+v", de)
	}
	if got := l.Attribution(); len(got) != 1 || got[0] != "WHO FluNet" {
		t.Errorf("attribution %v", got)
	}
	if len(rep.Inputs) != 2 || !strings.HasPrefix(rep.Inputs[0].First, "2024-01-01") {
		t.Errorf("report %+v", rep.Inputs)
	}
	// The file keeps the data set and its configuration.
	out := t.TempDir()
	if err := l.WriteFile(out); err != nil {
		t.Fatal(err)
	}
	back, err := Load(out)
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := back.Record("USA|10", time.Time{}); *b.TotalCases != 784 || back.TrendDays() != 14 {
		t.Errorf("loaded: %+v, trend days %d", b, back.TrendDays())
	}
	if _, _, err := Build(BuildOptions{ConfigYAML: []byte(fluConfig), Dataset: "flu"}); err == nil {
		t.Error("a build of another data set from the COVID-19 snapshot succeeded")
	}
}

// statesCSV is a wide file of one state, cumulative i² on 2024-01-(i+1).
func statesCSV() string {
	head, row := "fips,state", "10,Delaware"
	for i := 0; i <= 28; i++ {
		head += fmt.Sprintf(",1/%d/24", i+1)
		row += fmt.Sprintf(",%d", i*i)
	}
	return head + "\n" + row + "\n"
}

func TestConfigErrors(t *testing.T) {
	good, err := os.ReadFile(filepath.Join("..", "..", "configs", "health.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := parseConfig(good); err != nil {
		t.Fatalf("configs/health.yaml: %v", err)
	}
	for _, tt := range []struct{ name, from, to string }{
		{"unknown key", "trend_days: 7", "trend_days: 7\nnot_a_key: 1"},
		{"bad trend days", "trend_days: 7", "trend_days: 0\nbusiness_tags: {}"},
		{"unknown layout", "layout: long", "layout: sideways"},
		{"unknown date format", "date_format: M/D/YY", "date_format: YY-M-D"},
		{"unknown measure", "measure: deaths", "measure: hospitalisations"},
		{"unknown geography", "geography: nyc-modzcta\n        keys: {code: MODZCTA}", "geography: atlantis\n        keys: {code: MODZCTA}"},
		{"unknown source", "source: nyt", "source: bbc"},
		{"totals without a series date", "date_of: nyc-caserate", "date_of: nyc-polygons"},
	} {
		bad := strings.Replace(string(good), tt.from, tt.to, 1)
		if bad == string(good) {
			t.Fatalf("%s: %q not in the config", tt.name, tt.from)
		}
		if _, err := parseConfig([]byte(bad)); err == nil {
			t.Errorf("%s: accepted", tt.name)
		}
	}
}
