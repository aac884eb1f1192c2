package covid

import (
	"fmt"
	"math"
)

// Measures: what a series counts.
const (
	// measureCases and measureDeaths are cumulative counts.
	measureCases  = "cases"
	measureDeaths = "deaths"
	// measureCaseRate is new cases per 100,000 people in each period
	// (step) ending at the date, in fixed point (see series.scale).
	measureCaseRate = "case_rate"
)

// measureNames are the measures an input may carry.
var measureNames = []string{measureCases, measureDeaths, measureCaseRate}

// missing marks a value the source does not give (an empty cell, a week
// NYC suppressed, a day without a row).
const missing = math.MinInt32

// series is a regular time series: vals[i] is the value of the day
// start + i*step. Cumulative series (cases, deaths) are daily; a rate
// series holds the period's value at the period's last day.
type series struct {
	start day
	step  int32
	// scale is 10^decimals of a fixed-point rate, 1 for counts.
	scale int32
	vals  []int32
}

// last returns the day of the last value, noDay for an empty series.
func (s *series) last() day {
	if len(s.vals) == 0 {
		return noDay
	}
	return s.start + day(int32(len(s.vals)-1)*s.step)
}

// index returns the index of the last value on or before d, and whether
// d lies within the series (start <= d <= last).
func (s *series) index(d day) (int, bool) {
	if len(s.vals) == 0 || d < s.start || d > s.last() {
		return 0, false
	}
	return int(int32(d-s.start) / s.step), true
}

// at returns the value on or before d, false when d is outside the series
// or the value is missing.
func (s *series) at(d day) (int64, bool) {
	i, ok := s.index(d)
	if !ok || s.vals[i] == missing {
		return 0, false
	}
	return int64(s.vals[i]), true
}

// newIn returns the new cases of a cumulative daily series in the window
// (from, to]: the sum of the day-to-day differences, each clamped at 0 (a
// correction that lowers the cumulative count is no negative new case).
// ok is false when the window is not inside the series or a value in it
// is missing.
func (s *series) newIn(from, to day) (int64, bool) {
	if s.step != 1 {
		return 0, false
	}
	i, ok1 := s.index(from)
	j, ok2 := s.index(to)
	if !ok1 || !ok2 || j < i {
		return 0, false
	}
	var sum int64
	prev := s.vals[i]
	if prev == missing {
		return 0, false
	}
	for _, v := range s.vals[i+1 : j+1] {
		if v == missing {
			return 0, false
		}
		if v > prev {
			sum += int64(v - prev)
		}
		prev = v
	}
	return sum, true
}

// periodSum returns the sum of a rate series' values whose periods end in
// (from, to], as a float in the rate's unit. ok is false when a period of
// the window is outside the series or missing, or the window holds none.
func (s *series) periodSum(from, to day) (float64, bool) {
	if len(s.vals) == 0 || from < s.start-day(s.step) || to > s.last() || to <= from {
		return 0, false
	}
	// First period ending after from, last ending on or before to.
	first := 0
	if from >= s.start {
		first = int(int32(from-s.start)/s.step) + 1
	}
	lastI, _ := s.index(to)
	if lastI < first {
		return 0, false
	}
	var sum int64
	for _, v := range s.vals[first : lastI+1] {
		if v == missing {
			return 0, false
		}
		sum += int64(v)
	}
	return float64(sum) / float64(s.scale), true
}

// sumSeries adds series of one measure value by value (a country's
// provinces, a state's counties). They must share start, step and scale;
// the result is as long as the shortest. A value is missing when it is
// missing in any part.
func sumSeries(parts []*series) (*series, error) {
	if len(parts) == 0 {
		return nil, fmt.Errorf("no series to sum")
	}
	if len(parts) == 1 {
		return parts[0], nil
	}
	p0 := parts[0]
	n := len(p0.vals)
	for _, p := range parts[1:] {
		if p.start != p0.start || p.step != p0.step || p.scale != p0.scale {
			return nil, fmt.Errorf("series to sum differ in start, step or scale (%v/%d vs %v/%d)", p0.start, p0.step, p.start, p.step)
		}
		n = min(n, len(p.vals))
	}
	out := &series{start: p0.start, step: p0.step, scale: p0.scale, vals: make([]int32, n)}
	for i := range out.vals {
		var sum int64
		for _, p := range parts {
			v := p.vals[i]
			if v == missing {
				sum = missing
				break
			}
			sum += int64(v)
		}
		if sum > math.MaxInt32 || (sum < -math.MaxInt32 && sum != missing) {
			return nil, fmt.Errorf("sum %d on %v overflows int32", sum, p0.start+day(int32(i)*p0.step))
		}
		out.vals[i] = int32(sum)
	}
	return out, nil
}
