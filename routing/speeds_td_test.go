package routing

import (
	"math"
	"sort"
	"testing"

	"github.com/geosvc/geosvc/routing/ch"
)

// rushHourRules slows Delaware's main roads on Monday morning: to 70 %
// of their speed from 07:00 and from 09:00, to 50 % from 08:00.
const rushHourRules = `rules:
  - name: shoulder
    classes: [motorway, motorway_link, trunk, trunk_link, primary, primary_link, secondary, secondary_link]
    factor: 0.7
    days: mon
    hours: "7-8, 9-10"
  - name: peak
    classes: [motorway, motorway_link, trunk, trunk_link, primary, primary_link, secondary, secondary_link]
    factor: 0.5
    days: mon
    hours: "8"
`

// TestBucketedErrorDelaware measures what time-bucketed routing (the
// departure hour's times on the whole trip) costs against the exact
// time-dependent answer (each road's time by the hour it is entered) on
// Delaware with rushHourRules: departures at 07:00 and 07:45 on Monday,
// 30 x 30 random points. A trip that ends within its departure hour is
// the same both ways (to the second); the others' errors are logged
// (docs/routing.md quotes them).
func TestBucketedErrorDelaware(t *testing.T) {
	g := testGraph(t, "delaware")
	t.Cleanup(func() { g.SetSpeeds(nil) })
	p := g.MapSpeeds(mustSpeeds(t, "rush.yaml", rushHourRules))
	g.SetSpeeds(p)
	t.Logf("%s", p.Report())
	hourMS := map[int][]uint32{}
	for h := 7; h <= 12; h++ {
		m, _ := g.AtHour(Fastest, h)
		hourMS[h] = bucketNodeMS(t, g, m)
	}
	pts := roadPoints(g, 60, 11, 0)
	src, dst := pts[:30], pts[30:]
	for _, depMin := range []int{0, 45} {
		t0 := int64(depMin) * 60000
		msAt := func(v uint32, at int64) int64 {
			h := 7 + int((t0+at)/3600000)
			return int64(hourMS[min(h, 12)][v])
		}
		m, _ := g.AtHour(Fastest, 7)
		tab := matrixOf(t, g, m, src, dst)
		var rel []float64
		var within, crossing, maxAbs int
		for i, s := range src {
			exact := g.tdRow(s, dst, msAt)
			for j, e := range exact {
				got, _ := tab.At(i, j)
				if e == ch.Inf || got == NoRoute || e == 0 {
					continue
				}
				es := int(math.Round(float64(e) / 1000))
				diff := int(got) - es
				if t0+e <= 3600000 {
					within++
					if diff < -1 || diff > 1 {
						t.Errorf("07:%02d, %d -> %d ends in its hour: bucketed %d s, exact %d s", depMin, i, j, got, es)
					}
					continue
				}
				crossing++
				maxAbs = max(maxAbs, int(abs(float64(diff))))
				rel = append(rel, math.Abs(float64(diff))/float64(es))
			}
		}
		sort.Float64s(rel)
		mean := 0.0
		for _, r := range rel {
			mean += r
		}
		if len(rel) > 0 {
			mean /= float64(len(rel))
			t.Logf("Monday 07:%02d: %d trips end within the hour (equal); %d cross into 08:00: bucketed vs exact error mean %.1f %%, median %.1f %%, 95th %.1f %%, max %.1f %% (%d s)",
				depMin, within, crossing, 100*mean, 100*rel[len(rel)/2], 100*rel[len(rel)*95/100], 100*rel[len(rel)-1], maxAbs)
		} else {
			t.Logf("Monday 07:%02d: %d trips end within the hour (equal); none crosses", depMin, within)
		}
		if depMin == 45 && crossing == 0 {
			t.Errorf("no trip leaving at 07:45 crosses 08:00: the measure measures nothing")
		}
	}
}
