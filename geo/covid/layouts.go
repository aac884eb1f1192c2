package covid

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// readInput reads one input file into raw rows. dateOf is the date of a
// totals input (the last date of its date_of input).
func readInput(in *inputConfig, r io.Reader, dateOf day) ([]rawRow, error) {
	c := newCSVReader(r)
	header, cols, err := readHeader(c)
	if err != nil {
		return nil, err
	}
	switch in.Layout {
	case layoutWide:
		return readWide(in, c, header, cols)
	case layoutLong:
		return readLong(in, c, cols)
	case layoutDateRows:
		return readDateRows(in, c, header, cols)
	case layoutTotals:
		return readTotals(in, c, cols, dateOf)
	}
	return nil, fmt.Errorf("layout %q is not a CSV layout", in.Layout)
}

// readWide reads one row per area with one column per date.
func readWide(in *inputConfig, c *csv.Reader, header []string, cols map[string]int) ([]rawRow, error) {
	parse, _ := dateParser(in.DateFormat)
	keyCols, err := keyColumns(in, cols)
	if err != nil {
		return nil, err
	}
	var dateCols []int
	var days []day
	for i, h := range header {
		if d, err := parse(h); err == nil {
			dateCols = append(dateCols, i)
			days = append(days, d)
		}
	}
	cal, err := newCalendar(days, in.Measure)
	if err != nil {
		return nil, fmt.Errorf("header: %w", err)
	}
	parseVal, scale := valueParser(in.Measure, in.Decimals)
	var rows []rawRow
	for line := 2; ; line++ {
		rec, err := c.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		if len(rec) < len(header) {
			return nil, fmt.Errorf("line %d: %d fields, header has %d", line, len(rec), len(header))
		}
		s := cal.newSeries(scale)
		for k, ci := range dateCols {
			v, err := parseVal(rec[ci])
			if err != nil {
				return nil, fmt.Errorf("line %d, %s: %w", line, header[ci], err)
			}
			s.vals[cal.index(days[k])] = v
		}
		rows = append(rows, rawRow{input: in.Name, source: in.Source, measure: in.Measure, keys: rowKeys(rec, keyCols), line: line, s: s, population: math.NaN()})
	}
	return rows, nil
}

// readLong reads one row per date and area, one column per measure.
func readLong(in *inputConfig, c *csv.Reader, cols map[string]int) ([]rawRow, error) {
	parse, _ := dateParser(in.DateFormat)
	keyCols, err := keyColumns(in, cols)
	if err != nil {
		return nil, err
	}
	dateCol, ok := cols[in.DateColumn]
	if !ok {
		return nil, fmt.Errorf("no date column %q", in.DateColumn)
	}
	measures := sortedKeys(in.Measures)
	mCols := make([]int, len(measures))
	for i, m := range measures {
		if mCols[i], ok = cols[in.Measures[m]]; !ok {
			return nil, fmt.Errorf("no column %q (measure %s)", in.Measures[m], m)
		}
	}
	type obs struct {
		d    day
		vals []int32
	}
	type group struct {
		keys map[string]string
		line int
		obs  []obs
	}
	groups := map[string]*group{}
	var order []string
	for line := 2; ; line++ {
		rec, err := c.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		if dateCol >= len(rec) {
			return nil, fmt.Errorf("line %d: no date", line)
		}
		d, err := parse(strings.TrimSpace(rec[dateCol]))
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", line, err)
		}
		keys := rowKeys(rec, keyCols)
		id := groupKey(keys)
		g := groups[id]
		if g == nil {
			g = &group{keys: keys, line: line}
			groups[id] = g
			order = append(order, id)
		}
		o := obs{d: d, vals: make([]int32, len(measures))}
		for i, ci := range mCols {
			if ci >= len(rec) {
				return nil, fmt.Errorf("line %d: no column %s", line, measures[i])
			}
			p, _ := valueParser(measures[i], in.Decimals)
			if o.vals[i], err = p(rec[ci]); err != nil {
				return nil, fmt.Errorf("line %d: %w", line, err)
			}
		}
		g.obs = append(g.obs, o)
	}
	var rows []rawRow
	for _, id := range order {
		g := groups[id]
		days := make([]day, len(g.obs))
		for i, o := range g.obs {
			days[i] = o.d
		}
		for i, m := range measures {
			cal, err := newCalendar(days, m)
			if err != nil {
				return nil, fmt.Errorf("area at line %d: %w", g.line, err)
			}
			_, scale := valueParser(m, in.Decimals)
			s := cal.newSeries(scale)
			for _, o := range g.obs {
				s.vals[cal.index(o.d)] = o.vals[i]
			}
			rows = append(rows, rawRow{input: in.Name, source: in.Source, measure: m, keys: g.keys, line: g.line, s: s, population: math.NaN()})
		}
	}
	return rows, nil
}

// groupKey joins key values into one map key.
func groupKey(keys map[string]string) string {
	var b strings.Builder
	for _, k := range sortedKeys(keys) {
		b.WriteString(k)
		b.WriteByte('=')
		b.WriteString(keys[k])
		b.WriteByte(0)
	}
	return b.String()
}

// readDateRows reads one row per date with one column per area.
func readDateRows(in *inputConfig, c *csv.Reader, header []string, cols map[string]int) ([]rawRow, error) {
	parse, _ := dateParser(in.DateFormat)
	dateCol, ok := cols[in.DateColumn]
	if !ok {
		return nil, fmt.Errorf("no date column %q", in.DateColumn)
	}
	var areaCols []int
	for i, h := range header {
		if i != dateCol && strings.HasPrefix(h, in.ColumnPrefix) && len(h) > len(in.ColumnPrefix) {
			areaCols = append(areaCols, i)
		}
	}
	parseVal, scale := valueParser(in.Measure, in.Decimals)
	var days []day
	var cells [][]int32 // per date row, per area column
	for line := 2; ; line++ {
		rec, err := c.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		if len(rec) < len(header) {
			return nil, fmt.Errorf("line %d: %d fields, header has %d", line, len(rec), len(header))
		}
		d, err := parse(strings.TrimSpace(rec[dateCol]))
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", line, err)
		}
		row := make([]int32, len(areaCols))
		for k, ci := range areaCols {
			if row[k], err = parseVal(rec[ci]); err != nil {
				return nil, fmt.Errorf("line %d, %s: %w", line, header[ci], err)
			}
		}
		days = append(days, d)
		cells = append(cells, row)
	}
	cal, err := newCalendar(days, in.Measure)
	if err != nil {
		return nil, err
	}
	rows := make([]rawRow, len(areaCols))
	for k, ci := range areaCols {
		s := cal.newSeries(scale)
		for r, d := range days {
			s.vals[cal.index(d)] = cells[r][k]
		}
		code := header[ci][len(in.ColumnPrefix):]
		rows[k] = rawRow{input: in.Name, source: in.Source, measure: in.Measure, keys: map[string]string{"code": code}, line: 1, s: s, population: math.NaN()}
	}
	return rows, nil
}

// readTotals reads one row per area with its totals as of dateOf.
func readTotals(in *inputConfig, c *csv.Reader, cols map[string]int, dateOf day) ([]rawRow, error) {
	keyCols, err := keyColumns(in, cols)
	if err != nil {
		return nil, err
	}
	measures := sortedKeys(in.Measures)
	mCols := make([]int, len(measures))
	var ok bool
	for i, m := range measures {
		if mCols[i], ok = cols[in.Measures[m]]; !ok {
			return nil, fmt.Errorf("no column %q (measure %s)", in.Measures[m], m)
		}
	}
	popCol := -1
	if in.Population != "" {
		if popCol, ok = cols[in.Population]; !ok {
			return nil, fmt.Errorf("no population column %q", in.Population)
		}
	}
	var rows []rawRow
	for line := 2; ; line++ {
		rec, err := c.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		keys := rowKeys(rec, keyCols)
		pop := math.NaN()
		if popCol >= 0 && popCol < len(rec) {
			if f, err := strconv.ParseFloat(strings.TrimSpace(rec[popCol]), 64); err == nil && f > 0 && !math.IsInf(f, 0) {
				pop = f
			}
		}
		for i, m := range measures {
			if mCols[i] >= len(rec) {
				return nil, fmt.Errorf("line %d: no column %s", line, m)
			}
			p, scale := valueParser(m, in.Decimals)
			v, err := p(rec[mCols[i]])
			if err != nil {
				return nil, fmt.Errorf("line %d: %w", line, err)
			}
			s := &series{start: dateOf, step: 1, scale: scale, vals: []int32{v}}
			rows = append(rows, rawRow{input: in.Name, source: in.Source, measure: m, keys: keys, line: line, s: s, population: pop})
		}
	}
	return rows, nil
}
