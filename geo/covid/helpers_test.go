package covid

import (
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/geosvc/geosvc/internal/shareddata"
)

// The real-data tests read shared/data/covid beside the repository
// ($GEOSVC_SHARED_DATA/covid): they are skipped when it is missing, and
// fail under CI=true.

// covidFile returns the path of a file under shared/data/covid, skipping
// (or failing, under CI) when it is not there.
func covidFile(tb testing.TB, rel string) string {
	tb.Helper()
	return shareddata.Require(tb, "covid/"+rel)
}

// covidDir returns shared/data/covid after checking that every file the
// default configuration reads is there.
func covidDir(tb testing.TB) string {
	tb.Helper()
	for _, f := range []string{
		"jhu/UID_ISO_FIPS_LookUp_Table.csv",
		"jhu/time_series_covid19_confirmed_global.csv", "jhu/time_series_covid19_deaths_global.csv",
		"jhu/time_series_covid19_confirmed_US_to-2020-08-18.csv", "jhu/time_series_covid19_deaths_US_to-2020-08-18.csv",
		"nyc/caserate-by-modzcta.csv", "nyc/data-by-modzcta.csv", "nyc/MODZCTA_2010_WGS1984.geo.json",
	} {
		covidFile(tb, f)
	}
	return shareddata.Path("covid")
}

type built struct {
	l   *Layer
	rep *Report
	err error
}

var (
	jhuBuildOnce, nytBuildOnce sync.Once
	jhuBuild, nytBuild         built
)

// buildFromCSV builds the layer from the shared CSVs (JHU and NYC only),
// once per test binary.
func buildFromCSV(tb testing.TB) (*Layer, *Report) {
	tb.Helper()
	dir := covidDir(tb)
	jhuBuildOnce.Do(func() {
		jhuBuild.l, jhuBuild.rep, jhuBuild.err = Build(BuildOptions{DataDir: dir})
	})
	if jhuBuild.err != nil {
		tb.Fatal(jhuBuild.err)
	}
	return jhuBuild.l, jhuBuild.rep
}

// buildWithNYT builds the layer from the shared CSVs plus NYT's state
// series, once per test binary.
func buildWithNYT(tb testing.TB) (*Layer, *Report) {
	tb.Helper()
	dir := covidDir(tb)
	nyt := covidFile(tb, "nyt/us-states.csv")
	nytBuildOnce.Do(func() {
		nytBuild.l, nytBuild.rep, nytBuild.err = Build(BuildOptions{DataDir: dir, Files: map[string]string{"nyt-states": nyt}})
	})
	if nytBuild.err != nil {
		tb.Fatal(nytBuild.err)
	}
	return nytBuild.l, nytBuild.rep
}

// csvTable is a CSV file read by the tests' own parser, independent of
// the code under test: lines split on \n with \r trimmed, fields split on
// commas outside double quotes (the shared files have no quoted line
// breaks and no escaped quotes).
type csvTable struct {
	header []string
	rows   [][]string
	cols   map[string]int
}

// tables caches the tables read, by path (they are read-only).
var tables sync.Map

func readTable(tb testing.TB, path string) *csvTable {
	tb.Helper()
	if t, ok := tables.Load(path); ok {
		return t.(*csvTable)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	s := strings.TrimPrefix(string(b), "\ufeff")
	t := &csvTable{}
	for i, line := range strings.Split(s, "\n") {
		line = strings.TrimRight(line, "\r")
		if line == "" {
			continue
		}
		var fields []string
		var cur strings.Builder
		quoted := false
		for _, c := range line {
			switch {
			case c == '"':
				quoted = !quoted
			case c == ',' && !quoted:
				fields = append(fields, cur.String())
				cur.Reset()
			default:
				cur.WriteRune(c)
			}
		}
		fields = append(fields, cur.String())
		if i == 0 {
			t.header = fields
		} else {
			t.rows = append(t.rows, fields)
		}
	}
	t.cols = map[string]int{}
	for i, h := range t.header {
		if _, dup := t.cols[h]; !dup {
			t.cols[h] = i
		}
	}
	tables.Store(path, t)
	return t
}

// col returns the index of a header column.
func (t *csvTable) col(tb testing.TB, name string) int {
	tb.Helper()
	i, ok := t.cols[name]
	if !ok {
		tb.Fatalf("no column %q", name)
	}
	return i
}

// find returns the rows whose columns equal the given values (column
// name, value pairs).
func (t *csvTable) find(tb testing.TB, kv ...string) [][]string {
	tb.Helper()
	var out [][]string
next:
	for _, r := range t.rows {
		for i := 0; i < len(kv); i += 2 {
			if r[t.col(tb, kv[i])] != kv[i+1] {
				continue next
			}
		}
		out = append(out, r)
	}
	return out
}

// one returns the single row matching kv.
func (t *csvTable) one(tb testing.TB, kv ...string) []string {
	tb.Helper()
	rs := t.find(tb, kv...)
	if len(rs) != 1 {
		tb.Fatalf("%d rows match %v, want 1", len(rs), kv)
	}
	return rs[0]
}

// num parses an integer cell (JHU writes some as 12.0).
func num(tb testing.TB, s string) int64 {
	tb.Helper()
	s = strings.TrimSuffix(strings.TrimSpace(s), ".0")
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		tb.Fatalf("cell %q: %v", s, err)
	}
	return n
}

// series returns the values of a wide row from the first date column on,
// with the dates of the header (parsed with layout, a time.Parse layout).
func (t *csvTable) series(tb testing.TB, row []string, firstDateCol int, layout string) ([]time.Time, []int64) {
	tb.Helper()
	var days []time.Time
	var vals []int64
	for i := firstDateCol; i < len(t.header); i++ {
		d, err := time.Parse(layout, t.header[i])
		if err != nil {
			tb.Fatalf("header %q: %v", t.header[i], err)
		}
		days = append(days, d)
		vals = append(vals, num(tb, row[i]))
	}
	return days, vals
}

// valueOn returns the value of a series on day d.
func valueOn(tb testing.TB, days []time.Time, vals []int64, d time.Time) int64 {
	tb.Helper()
	for i, x := range days {
		if x.Equal(d) {
			return vals[i]
		}
	}
	tb.Fatalf("no value on %v", d)
	return 0
}

// handNew sums the clamped day-to-day increases of a cumulative series in
// (from, to].
func handNew(tb testing.TB, days []time.Time, vals []int64, from, to time.Time) int64 {
	tb.Helper()
	var sum int64
	for i := 1; i < len(days); i++ {
		if days[i].After(from) && !days[i].After(to) {
			if d := vals[i] - vals[i-1]; d > 0 {
				sum += d
			}
		}
	}
	return sum
}

// handTrend is the trend definition computed by hand: percent change of
// the new cases of the last n days against the n days before; 0 when both
// are 0, +100 when only the earlier window is 0.
func handTrend(last, prev int64) float64 {
	switch {
	case prev == 0 && last == 0:
		return 0
	case prev == 0:
		return 100
	}
	v := 100 * float64(last-prev) / float64(prev)
	return float64(int64(v*100+sign(v)*0.5)) / 100
}

func sign(v float64) float64 {
	if v < 0 {
		return -1
	}
	return 1
}

func date(y, m, d int) time.Time { return time.Date(y, time.Month(m), d, 0, 0, 0, 0, time.UTC) }

// sumRows adds wide rows value by value.
func sumRows(rows [][]int64) []int64 {
	out := make([]int64, len(rows[0]))
	for _, r := range rows {
		for i, v := range r {
			out[i] += v
		}
	}
	return out
}
