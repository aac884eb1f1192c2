package covid

import (
	"math"
	"strings"
	"testing"
)

func readString(t *testing.T, in inputConfig, csv string, dateOf day) []rawRow {
	t.Helper()
	rows, err := readInput(&in, strings.NewReader(csv), dateOf)
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

func vals(s *series) []int32 { return s.vals }

func eqVals(a, b []int32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestReadWide(t *testing.T) {
	in := inputConfig{Name: "w", Layout: layoutWide, DateFormat: formatMDYYYY, Measure: measureCases, Keys: map[string]string{"country": "Country", "province": "Province"}}
	// BOM, CRLF, a quoted name with a comma, a missing day (1/24) in the
	// header and an empty cell.
	csv := "\ufeffProvince,Country,Lat,Lon,1/22/2020,1/23/2020,1/25/2020\r\n" +
		",Andorra,42.5,1.5,0,1,3\r\n" +
		"\"Bonaire, Sint Eustatius and Saba\",Netherlands,12.2,-68.3,,2,2\r\n"
	rows := readString(t, in, csv, noDay)
	if len(rows) != 2 {
		t.Fatalf("%d rows", len(rows))
	}
	if rows[0].keys["country"] != "Andorra" || rows[0].keys["province"] != "" || rows[1].keys["province"] != "Bonaire, Sint Eustatius and Saba" {
		t.Errorf("keys %v %v", rows[0].keys, rows[1].keys)
	}
	s := rows[0].s
	if s.start != dayOf(date(2020, 1, 22)) || s.step != 1 || !eqVals(vals(s), []int32{0, 1, missing, 3}) {
		t.Errorf("series %+v", s)
	}
	if !eqVals(vals(rows[1].s), []int32{missing, 2, missing, 2}) {
		t.Errorf("series %+v", rows[1].s)
	}
	if rows[1].line != 3 {
		t.Errorf("line %d", rows[1].line)
	}
}

func TestReadWideUS(t *testing.T) {
	// JHU's US layout: FIPS as a float, M/D/YY dates, an extra Population
	// column that is no date.
	in := inputConfig{Name: "us", Layout: layoutWide, DateFormat: formatMDYY, Measure: measureDeaths, Keys: map[string]string{"fips": "FIPS", "name": "Admin2", "state": "Province_State"}}
	csv := "UID,FIPS,Admin2,Province_State,Population,1/22/20,1/23/20\n" +
		"84010001,10001.0,Kent,Delaware,180786,0,2.0\n"
	rows := readString(t, in, csv, noDay)
	if len(rows) != 1 || rows[0].keys["fips"] != "10001.0" || !eqVals(vals(rows[0].s), []int32{0, 2}) {
		t.Errorf("%+v %v", rows, rows[0].s)
	}
	if f, ok := normalizeFIPS(rows[0].keys["fips"]); !ok || f != "10001" {
		t.Errorf("normalizeFIPS = %q", f)
	}
}

func TestReadLong(t *testing.T) {
	in := inputConfig{Name: "l", Layout: layoutLong, DateFormat: formatISO, DateColumn: "date", Measures: map[string]string{"cases": "cases", "deaths": "deaths"}, Keys: map[string]string{"fips": "fips", "name": "state"}}
	// Rows out of order, a gap of one day for Delaware.
	csv := "date,state,fips,cases,deaths\n" +
		"2020-03-07,Delaware,10,1,0\n" +
		"2020-03-06,Washington,53,10,1\n" +
		"2020-03-09,Delaware,10,4,0\n" +
		"2020-03-07,Washington,53,12,2\n"
	rows := readString(t, in, csv, noDay)
	if len(rows) != 4 {
		t.Fatalf("%d rows", len(rows))
	}
	// Per area in order of first appearance, measures in name order.
	de := rows[0]
	if de.keys["name"] != "Delaware" || de.measure != "cases" || de.s.start != dayOf(date(2020, 3, 7)) || !eqVals(vals(de.s), []int32{1, missing, 4}) {
		t.Errorf("Delaware cases %+v %v", de, de.s)
	}
	if wa := rows[3]; wa.keys["fips"] != "53" || wa.measure != "deaths" || !eqVals(vals(wa.s), []int32{1, 2}) {
		t.Errorf("Washington deaths %+v %v", wa, wa.s)
	}
	if _, err := readInput(&in, strings.NewReader(csv+"2020-03-07,Delaware,10,1,0\n"), noDay); err == nil {
		t.Error("a repeated date was accepted")
	}
}

func TestReadDateRows(t *testing.T) {
	in := inputConfig{Name: "d", Layout: layoutDateRows, DateFormat: formatMMDDYYYY, DateColumn: "week_ending", ColumnPrefix: "CASERATE_", Measure: measureCaseRate, Decimals: 2}
	csv := "week_ending,CASERATE_CITY,CASERATE_10001,OTHER\n" +
		"03/07/2020,0.29,,x\n" +
		"03/14/2020,1.5,12.345,x\n" +
		"03/28/2020,2,3,x\n"
	rows := readString(t, in, csv, noDay)
	if len(rows) != 2 || rows[1].keys["code"] != "10001" || rows[0].keys["code"] != "CITY" {
		t.Fatalf("%+v", rows)
	}
	s := rows[1].s
	if s.step != 7 || s.scale != 100 || !eqVals(vals(s), []int32{missing, 1235, missing, 300}) {
		t.Errorf("weekly series %+v", s)
	}
	if sum, ok := s.periodSum(dayOf(date(2020, 3, 21)), dayOf(date(2020, 3, 28))); !ok || sum != 3 {
		t.Errorf("periodSum = %v %v", sum, ok)
	}
}

func TestReadTotals(t *testing.T) {
	in := inputConfig{Name: "t", Layout: layoutTotals, Measures: map[string]string{"cases": "COVID_CASE_COUNT"}, Population: "POP", Keys: map[string]string{"code": "MODIFIED_ZCTA"}}
	csv := "MODIFIED_ZCTA,COVID_CASE_COUNT,POP\n10001,12391,27613.09\n10002,5,\n"
	d := dayOf(date(2025, 10, 11))
	rows := readString(t, in, csv, d)
	if len(rows) != 2 || rows[0].s.start != d || !eqVals(vals(rows[0].s), []int32{12391}) || rows[0].population != 27613.09 || !math.IsNaN(rows[1].population) {
		t.Errorf("%+v", rows)
	}
}

func TestReadErrors(t *testing.T) {
	wide := inputConfig{Name: "w", Layout: layoutWide, DateFormat: formatMDYYYY, Measure: measureCases, Keys: map[string]string{"country": "Country"}}
	for _, tt := range []struct {
		name string
		in   inputConfig
		csv  string
	}{
		{"empty file", wide, ""},
		{"no key column", wide, "Province,1/22/2020\nx,1\n"},
		{"no date column", wide, "Country,Lat\nx,1\n"},
		{"a count that is no number", wide, "Country,1/22/2020\nx,many\n"},
		{"a fractional count", wide, "Country,1/22/2020\nx,1.5\n"},
		{"a count beyond int32", wide, "Country,1/22/2020\nx,3000000000\n"},
		{"a short row", wide, "Country,1/22/2020,1/23/2020\nx,1\n"},
		{"dates off the grid", inputConfig{Name: "d", Layout: layoutDateRows, DateFormat: formatMMDDYYYY, DateColumn: "w", ColumnPrefix: "R_", Measure: measureCaseRate},
			"w,R_1\n03/07/2020,1\n03/14/2020,1\n03/17/2020,1\n"},
	} {
		if _, err := readInput(&tt.in, strings.NewReader(tt.csv), noDay); err == nil {
			t.Errorf("%s: no error", tt.name)
		}
	}
}

// FuzzReadInput feeds arbitrary bytes to every layout: the reader returns
// rows or an error, never panics.
func FuzzReadInput(f *testing.F) {
	f.Add("Province,Country,1/22/2020,1/23/2020\r\n,Andorra,0,1\r\n\"a,b\",X,,3\r\n")
	f.Add("date,state,fips,cases,deaths\n1/21/2020,Washington,53,1,0\n1/22/2020,Washington,53,1,0\n")
	f.Add("week_ending,CASERATE_10001\n03/07/2020,0.29\n03/14/2020,\n")
	f.Add("MODIFIED_ZCTA,COVID_CASE_COUNT,POP\n10001,12391,27613.09\n")
	f.Add("\ufeff\"")
	inputs := []inputConfig{
		{Name: "w", Layout: layoutWide, DateFormat: formatMDYYYY, Measure: measureCases, Keys: map[string]string{"country": "Country", "province": "Province"}},
		{Name: "w2", Layout: layoutWide, DateFormat: formatMDYY, Measure: measureCaseRate, Decimals: 2, Keys: map[string]string{"country": "Country"}},
		{Name: "l", Layout: layoutLong, DateFormat: formatMDYYYY, DateColumn: "date", Measures: map[string]string{"cases": "cases", "deaths": "deaths"}, Keys: map[string]string{"fips": "fips"}},
		{Name: "d", Layout: layoutDateRows, DateFormat: formatMMDDYYYY, DateColumn: "week_ending", ColumnPrefix: "CASERATE_", Measure: measureCaseRate, Decimals: 2},
		{Name: "t", Layout: layoutTotals, Measures: map[string]string{"cases": "COVID_CASE_COUNT"}, Population: "POP", Keys: map[string]string{"code": "MODIFIED_ZCTA"}},
	}
	f.Fuzz(func(t *testing.T, data string) {
		for i := range inputs {
			rows, err := readInput(&inputs[i], strings.NewReader(data), dayOf(date(2025, 10, 11)))
			if err != nil {
				continue
			}
			for _, r := range rows {
				if r.s == nil || r.s.step < 1 || r.s.scale < 1 {
					t.Fatalf("%s: bad series %+v", inputs[i].Name, r.s)
				}
				// Every row round-trips through the file encoding.
				got, err := decodeValues(appendValues(nil, r.s.vals), len(r.s.vals))
				if err != nil || !eqVals(got, r.s.vals) {
					t.Fatalf("values %v -> %v %v", r.s.vals, got, err)
				}
			}
		}
	})
}
