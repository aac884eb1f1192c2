package routing

import (
	"bytes"
	"fmt"
	"math"
	"sync"

	"go.yaml.in/yaml/v3"

	"github.com/geosvc/geosvc/configs"
	"github.com/geosvc/geosvc/routing/profile"
)

// metricsFile is the base name of the metric tables in configs.
const metricsFile = "metrics.yaml"

// metricTables are the numbers of the efficient and safest metrics
// (configs/metrics.yaml, where their sources are given).
type metricTables struct {
	Efficient struct {
		Source string `yaml:"source"`
		Curve  []struct {
			Mph float64 `yaml:"mph"`
			Mpg float64 `yaml:"mpg"`
		} `yaml:"curve"`
	} `yaml:"efficient"`
	Safest struct {
		Source string             `yaml:"source"`
		Rates  map[string]float64 `yaml:"rates_per_100m_vmt"`
		// TurnAcrossKm and UTurnKm are the turn penalties as km of urban
		// other road.
		TurnAcrossKm float64 `yaml:"turn_across_traffic_km"`
		UTurnKm      float64 `yaml:"u_turn_km"`
	} `yaml:"safest"`

	// fuel: speed (km/h) and L/100 km points, ascending.
	fuelKmh, fuelL100 []float64
	// riskPerM[rt]: fatal-crash involvements per metre, in riskUnit.
	riskPerM              [numRoadTypes]float64
	riskAcross, riskUTurn int64
}

// Integer units of the efficient and safest weights.
const (
	// fuelUnitPerL: weights of efficient are microlitres.
	fuelUnitPerL = 1e6
	// riskUnit: weights of safest are 1e-12 fatal-crash involvements.
	riskUnit          = 1e-12
	metresPerMile     = 1609.344
	mphToKmh          = 1.609344
	litresPer100KmMpg = 235.214583 // L/100 km = this / mpg (US gallon)
)

// safestClass is the road class of each RoadType for the crash rates.
var safestClass = [numRoadTypes]string{
	profile.Defaultspeed:        "rural_other",
	profile.Motorway:            "rural_interstate",
	profile.DualCarriageWay:     "rural_principal_arterial",
	profile.DualCarriageWayCity: "urban_other",
	profile.FederalHighway:      "rural_principal_arterial",
	profile.FederalHighwayCity:  "urban_other",
	profile.RegionalRoad:        "rural_other",
	profile.RegionalRoadCity:    "urban_other",
	profile.LocalRoad:           "rural_other",
	profile.LocalRoadCity:       "urban_other",
	profile.OtherRoad:           "rural_other",
	profile.OtherRoadCity:       "urban_other",
	profile.FerryCar:            "urban_interstate",
	profile.FerryCargo:          "urban_interstate",
	profile.FerryTrain:          "urban_interstate",
}

// parseMetricTables reads metric tables (the format of
// configs/metrics.yaml); unknown keys and missing numbers are errors.
func parseMetricTables(b []byte) (*metricTables, error) {
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	t := &metricTables{}
	if err := dec.Decode(t); err != nil {
		return nil, fmt.Errorf("routing: metric tables: %w", err)
	}
	c := t.Efficient.Curve
	if len(c) < 2 {
		return nil, fmt.Errorf("routing: metric tables: efficient.curve needs at least two points")
	}
	for i, p := range c {
		if p.Mph <= 0 || p.Mpg <= 0 || (i > 0 && p.Mph <= c[i-1].Mph) {
			return nil, fmt.Errorf("routing: metric tables: efficient.curve[%d]: speeds must be > 0 and ascending, mpg > 0", i)
		}
		t.fuelKmh = append(t.fuelKmh, p.Mph*mphToKmh)
		t.fuelL100 = append(t.fuelL100, litresPer100KmMpg/p.Mpg)
	}
	perM := func(rate float64) float64 { return rate / 1e8 / metresPerMile / riskUnit }
	for rt, class := range safestClass {
		r, ok := t.Safest.Rates[class]
		if !ok || r <= 0 {
			return nil, fmt.Errorf("routing: metric tables: safest.rates_per_100m_vmt.%s missing or not > 0", class)
		}
		t.riskPerM[rt] = perM(r)
	}
	if len(t.Safest.Rates) != 5 {
		return nil, fmt.Errorf("routing: metric tables: safest.rates_per_100m_vmt: want rural_interstate, rural_principal_arterial, rural_other, urban_interstate, urban_other")
	}
	if t.Safest.TurnAcrossKm < 0 || t.Safest.UTurnKm < 0 {
		return nil, fmt.Errorf("routing: metric tables: safest turn penalties must be >= 0")
	}
	urban := perM(t.Safest.Rates["urban_other"])
	t.riskAcross = int64(math.Round(t.Safest.TurnAcrossKm * 1000 * urban))
	t.riskUTurn = int64(math.Round(t.Safest.UTurnKm * 1000 * urban))
	return t, nil
}

var (
	defaultTablesOnce sync.Once
	defaultTables     *metricTables
)

// defaultMetricTables returns the embedded configs/metrics.yaml, parsed
// once; it panics if the embedded file is broken (a build error that its
// test catches).
func defaultMetricTables() *metricTables {
	defaultTablesOnce.Do(func() {
		b, err := configs.FS.ReadFile(metricsFile)
		if err == nil {
			defaultTables, err = parseMetricTables(b)
		}
		if err != nil {
			panic(err)
		}
	})
	return defaultTables
}

// litresPer100Km returns the consumption in L/100 km at kmh: linear between the
// curve's points, the first point's value below it, the last segment
// extended above it.
func (t *metricTables) litresPer100Km(kmh float64) float64 {
	xs, ys := t.fuelKmh, t.fuelL100
	if kmh <= xs[0] {
		return ys[0]
	}
	i := 1
	for i < len(xs)-1 && kmh > xs[i] {
		i++
	}
	f := (kmh - xs[i-1]) / (xs[i] - xs[i-1])
	return ys[i-1] + f*(ys[i]-ys[i-1])
}

// fuel returns the efficient weight (microlitres) of lengthM metres at
// kmh.
func (t *metricTables) fuel(lengthM, kmh float64) int64 {
	return int64(math.Round(lengthM / 1000 * t.litresPer100Km(kmh) / 100 * fuelUnitPerL))
}

// risk returns the safest weight of lengthM metres of RoadType rt.
func (t *metricTables) risk(lengthM float64, rt profile.RoadType) int64 {
	if int(rt) >= numRoadTypes {
		rt = profile.Defaultspeed
	}
	return int64(math.Round(lengthM * t.riskPerM[rt]))
}
