package covid

import "math"

// incidenceDays is the window of the 7-day incidence, whatever trend_days
// says.
const incidenceDays = 7

// caseStats are the numbers computed for one area on one day.
type caseStats struct {
	totalCases, totalDeaths   int64
	hasCases, hasDeaths       bool
	trend, deathTrend         float64
	hasTrend, hasDeathTrend   bool
	trendDays, deathTrendDays int
	incidence                 float64 // new cases in 7 days per 100,000
	hasIncidence              bool
}

// stats computes an area's numbers on day d, which its series must cover.
func (l *Layer) stats(i int, d day) caseStats {
	var st caseStats
	ser := &l.ser[i]
	td := day(l.cfg.TrendDays)
	pop := l.areas[i].population
	if s := ser[mCases]; s != nil {
		st.totalCases, st.hasCases = s.at(d)
		if last, ok1 := s.newIn(d-td, d); ok1 {
			if prev, ok2 := s.newIn(d-2*td, d-td); ok2 {
				st.trend, st.hasTrend, st.trendDays = trendPercent(float64(last), float64(prev)), true, int(td)
			}
		}
		if n, ok := s.newIn(d-incidenceDays, d); ok && pop > 0 {
			st.incidence, st.hasIncidence = float64(n)*1e5/pop, true
		}
	}
	if s := ser[mCaseRate]; s != nil {
		// A rate series has one value per period (NYC: weeks); the trend
		// window is rounded up to whole periods.
		w := (td + day(s.step) - 1) / day(s.step) * day(s.step)
		if !st.hasTrend {
			if last, ok1 := s.periodSum(d-w, d); ok1 {
				if prev, ok2 := s.periodSum(d-2*w, d-w); ok2 {
					st.trend, st.hasTrend, st.trendDays = trendPercent(last, prev), true, int(w)
				}
			}
		}
		if !st.hasIncidence {
			st.incidence, st.hasIncidence = s.periodSum(d-incidenceDays, d)
		}
	}
	if s := ser[mDeaths]; s != nil {
		st.totalDeaths, st.hasDeaths = s.at(d)
		if last, ok1 := s.newIn(d-td, d); ok1 {
			if prev, ok2 := s.newIn(d-2*td, d-td); ok2 {
				st.deathTrend, st.hasDeathTrend, st.deathTrendDays = trendPercent(float64(last), float64(prev)), true, int(td)
			}
		}
	}
	return st
}

// trendPercent is the change of new cases in the last window against the
// window before, in percent: 100·(last − prev)/prev. With prev = 0 it is 0
// when last is 0 too (nothing changed) and +100 when last > 0 (cases
// appeared: the percentage is unbounded, +100 keeps the sign and a bounded
// value for the risk score). Rounded to 2 decimals.
func trendPercent(last, prev float64) float64 {
	if prev == 0 {
		if last == 0 {
			return 0
		}
		return 100
	}
	return round2(100 * (last - prev) / prev)
}

// round2 rounds to 2 decimals.
func round2(v float64) float64 { return math.Round(v*100) / 100 }
