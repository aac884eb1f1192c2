package covid

import "math"

// Risk score: a deterministic number from 1 to 100 (docs/health.md gives
// a worked example).
//
//	I     = new cases in the last 7 days per 100,000 people
//	base  = I / (I + 100)              0 for no cases, 0.5 at the CDC's
//	                                   "high transmission" threshold of 100
//	f_t   = clamp(1 + trend/200, 0.5, 1.5)      trend = covid_trend in %,
//	                                   1 when unknown (+100 % gives 1.5)
//	f_d   = clamp(sqrt(D / D_ref), 0.5, 2)      D = business density, D_ref
//	                                   the median density of the records of
//	                                   the same country and level (of the
//	                                   tiles of the same zoom for a tile);
//	                                   1 when either is unknown
//	score = 1 + 99 · min(1, base · f_t · f_d)   rounded to 2 decimals
//
// The score exists only when I does (a population and 7 days of cases);
// it is then at least 1, so always > 0 as the spec wants.
const (
	riskHalf     = 100.0 // I at which base is 0.5
	riskMin      = 1.0
	riskMax      = 100.0
	trendFactMin = 0.5
	trendFactMax = 1.5
	densFactMin  = 0.5
	densFactMax  = 2.0
)

// riskScore computes the score; density and ref are ignored unless both
// are > 0.
func riskScore(incidence, trend float64, hasTrend bool, density, ref float64) float64 {
	base := 0.0
	if incidence > 0 {
		base = incidence / (incidence + riskHalf)
	}
	ft := 1.0
	if hasTrend {
		ft = clamp(1+trend/200, trendFactMin, trendFactMax)
	}
	fd := 1.0
	if density > 0 && ref > 0 {
		fd = clamp(math.Sqrt(density/ref), densFactMin, densFactMax)
	}
	return round2(riskMin + (riskMax-riskMin)*math.Min(1, base*ft*fd))
}

func clamp(v, lo, hi float64) float64 { return math.Max(lo, math.Min(hi, v)) }
