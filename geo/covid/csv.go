package covid

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
)

// rawRow is one area's series of one measure as an input gives it, before
// its keys are resolved to an area.
type rawRow struct {
	input   string // input name
	source  string // source key (jhu, nyt, nyc)
	measure string
	// keys maps key roles (country, province, fips, name, state, code,
	// group) to the row's values, trimmed.
	keys map[string]string
	// line is the row's line in the file (1 = header), for the report.
	line int
	s    *series
	// population is the totals layout's population, NaN when none.
	population float64
}

// label is a short description of the row for the build report.
func (r *rawRow) label() string {
	var parts []string
	for _, k := range []string{"code", "fips", "name", "province", "state", "country"} {
		if v := r.keys[k]; v != "" {
			parts = append(parts, k+"="+v)
		}
	}
	return fmt.Sprintf("%s line %d (%s)", r.input, r.line, strings.Join(parts, ", "))
}

// newCSVReader returns a CSV reader of r without a UTF-8 byte order mark.
// encoding/csv drops the carriage return of CRLF line ends.
func newCSVReader(r io.Reader) *csv.Reader {
	br := bufio.NewReaderSize(r, 1<<16)
	if head, err := br.Peek(3); err == nil && bytes.Equal(head, []byte{0xEF, 0xBB, 0xBF}) {
		br.Discard(3)
	}
	c := csv.NewReader(br)
	c.FieldsPerRecord = -1
	c.ReuseRecord = true
	return c
}

// readHeader reads the header row and maps column names to indexes (the
// first of repeated names).
func readHeader(c *csv.Reader) ([]string, map[string]int, error) {
	rec, err := c.Read()
	if err != nil {
		if errors.Is(err, io.EOF) {
			return nil, nil, fmt.Errorf("empty file")
		}
		return nil, nil, err
	}
	header := make([]string, len(rec))
	cols := make(map[string]int, len(rec))
	for i, h := range rec {
		h = strings.TrimSpace(h)
		header[i] = h
		if _, dup := cols[h]; !dup {
			cols[h] = i
		}
	}
	return header, cols, nil
}

// keyColumns resolves the input's key roles to column indexes.
func keyColumns(in *inputConfig, cols map[string]int) (map[string]int, error) {
	out := make(map[string]int, len(in.Keys))
	for _, role := range sortedKeys(in.Keys) {
		i, ok := cols[in.Keys[role]]
		if !ok {
			return nil, fmt.Errorf("no column %q (key %s)", in.Keys[role], role)
		}
		out[role] = i
	}
	return out, nil
}

// rowKeys returns the key values of rec.
func rowKeys(rec []string, keyCols map[string]int) map[string]string {
	k := make(map[string]string, len(keyCols))
	for role, i := range keyCols {
		if i < len(rec) {
			k[role] = strings.TrimSpace(rec[i])
		}
	}
	return k
}

// valueParser returns the parser of one cell of the measure: a count
// (integer; 12.0 is accepted, 12.5 is not) or a fixed-point rate with
// `decimals` decimals. An empty cell is missing.
func valueParser(measure string, decimals int) (func(string) (int32, error), int32) {
	if measure == measureCaseRate {
		scale := math.Pow10(decimals)
		return func(s string) (int32, error) {
			s = strings.TrimSpace(s)
			if s == "" {
				return missing, nil
			}
			f, err := strconv.ParseFloat(s, 64)
			if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
				return 0, fmt.Errorf("value %q: not a number", s)
			}
			v := math.Round(f * scale)
			if v > math.MaxInt32 || v <= missing {
				return 0, fmt.Errorf("value %q: out of range", s)
			}
			return int32(v), nil
		}, int32(scale)
	}
	return parseCount, 1
}

// parseCount parses a count cell; empty is missing.
func parseCount(s string) (int32, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return missing, nil
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		f, ferr := strconv.ParseFloat(s, 64)
		if ferr != nil || f != math.Trunc(f) || math.IsInf(f, 0) {
			return 0, fmt.Errorf("value %q: not a count", s)
		}
		if f > math.MaxInt32 || f <= missing {
			return 0, fmt.Errorf("value %q: out of range", s)
		}
		return int32(f), nil
	}
	if n > math.MaxInt32 || n <= missing {
		return 0, fmt.Errorf("value %q: out of range", s)
	}
	return int32(n), nil
}

// calendar places dates on a regular grid: start, step and each date's
// index. Dates must be unique.
type calendar struct {
	start day
	step  int32
	n     int
}

// newCalendar returns the grid of the dates: daily for cumulative
// measures (a missing day is a missing value), else the smallest gap
// between two dates (NYC's weeks).
func newCalendar(days []day, measure string) (calendar, error) {
	if len(days) == 0 {
		return calendar{}, fmt.Errorf("no dates")
	}
	sorted := append([]day(nil), days...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i] < sorted[j] })
	step := int32(0)
	for i := 1; i < len(sorted); i++ {
		g := int32(sorted[i] - sorted[i-1])
		if g == 0 {
			return calendar{}, fmt.Errorf("date %v repeated", sorted[i])
		}
		if step == 0 || g < step {
			step = g
		}
	}
	if measure != measureCaseRate {
		step = 1
	}
	if step == 0 {
		step = 1
	}
	for i := 1; i < len(sorted); i++ {
		if int32(sorted[i]-sorted[0])%step != 0 {
			return calendar{}, fmt.Errorf("date %v is off the %d-day grid from %v", sorted[i], step, sorted[0])
		}
	}
	span := int64(sorted[len(sorted)-1]-sorted[0])/int64(step) + 1
	if span > maxSeriesLen {
		return calendar{}, fmt.Errorf("dates %v to %v span too many periods", sorted[0], sorted[len(sorted)-1])
	}
	return calendar{start: sorted[0], step: step, n: int(span)}, nil
}

func (c calendar) index(d day) int { return int(int32(d-c.start) / c.step) }

// newSeries returns an all-missing series on the calendar.
func (c calendar) newSeries(scale int32) *series {
	s := &series{start: c.start, step: c.step, scale: scale, vals: make([]int32, c.n)}
	for i := range s.vals {
		s.vals[i] = missing
	}
	return s
}
