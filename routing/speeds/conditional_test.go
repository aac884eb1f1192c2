package speeds

import (
	"math"
	"testing"
)

// hoursOf lists the set hours of the week.
func hoursOf(h [Hours]bool) []int {
	var out []int
	for i, ok := range h {
		if ok {
			out = append(out, i)
		}
	}
	return out
}

// span lists the hours of the week from..to-1 of each day in days
// (0 = Monday), written out by hand for the table below.
func span(days []int, from, to int) []int {
	var out []int
	for _, d := range days {
		for h := from; h < to; h++ {
			out = append(out, d*24+h)
		}
	}
	return out
}

func TestParseConditionalMaxspeed(t *testing.T) {
	weekdays := []int{0, 1, 2, 3, 4}
	for _, c := range []struct {
		in      string
		kmh     []float64
		hours   [][]int
		skipped int
	}{
		{"30 @ (Mo-Fr 07:00-09:00)", []float64{30}, [][]int{span(weekdays, 7, 9)}, 0},
		{"30 @ (Mo-Fr 07:30-08:15)", []float64{30}, [][]int{span(weekdays, 7, 9)}, 0},
		{"20 mph @ (Sa,Su)", []float64{20 * 1.609344}, [][]int{span([]int{5, 6}, 0, 24)}, 0},
		{"50 @ (06:00-22:00); 30 @ (22:00-06:00)", []float64{50, 30}, [][]int{
			span([]int{0, 1, 2, 3, 4, 5, 6}, 6, 22),
			// 22:00-24:00 every day and 00:00-06:00 every next day: the
			// whole week's nights.
			sortedUnion(span([]int{0, 1, 2, 3, 4, 5, 6}, 22, 24), span([]int{0, 1, 2, 3, 4, 5, 6}, 0, 6)),
		}, 0},
		{"30 @ (Mo-Fr 07:00-09:00,16:00-18:00)", []float64{30}, [][]int{sortedUnion(span(weekdays, 7, 9), span(weekdays, 16, 18))}, 0},
		{"30 @ (Su 23:00-01:00)", []float64{30}, [][]int{{6*24 + 23, 0}}, 0},
		{"30 @ (Mo-Fr 07:00-09:00; Sa 08:00-12:00)", []float64{30}, [][]int{sortedUnion(span(weekdays, 7, 9), span([]int{5}, 8, 12))}, 0},
		{"30 @ wet", nil, nil, 1},
		{"80 @ (weight>7.5); 60 @ (Mo-Fr 07:00-09:00)", []float64{60}, [][]int{span(weekdays, 7, 9)}, 1},
		{"walk @ (Mo-Fr 07:00-09:00)", nil, nil, 1},
		{"30 @ (Apr-Oct)", nil, nil, 1},
		{"30 @ (25:00-26:00)", nil, nil, 1},
		{"30", nil, nil, 1},
		{"", nil, nil, 0},
		{"400 @ (Mo)", nil, nil, 1},
	} {
		parts, skipped := ParseConditionalMaxspeed(c.in)
		if skipped != c.skipped || len(parts) != len(c.kmh) {
			t.Errorf("%q: %d parts, %d skipped; want %d, %d", c.in, len(parts), skipped, len(c.kmh), c.skipped)
			continue
		}
		for i, p := range parts {
			got := hoursOf(p.Hours)
			if math.Abs(p.Kmh-c.kmh[i]) > 1e-9 || !equalInts(got, sortedUnion(c.hours[i])) {
				t.Errorf("%q part %d: %.3f km/h at %v; want %.3f at %v", c.in, i, p.Kmh, got, c.kmh[i], sortedUnion(c.hours[i]))
			}
		}
	}
}

func sortedUnion(lists ...[]int) []int {
	var set [Hours]bool
	for _, l := range lists {
		for _, h := range l {
			set[h] = true
		}
	}
	return hoursOf(set)
}

func equalInts(a, b []int) bool {
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

func FuzzParseConditionalMaxspeed(f *testing.F) {
	for _, s := range []string{"30 @ (Mo-Fr 07:00-09:00)", "50 @ (06:00-22:00); 30 @ (22:00-06:00)", "20 mph @ (Sa,Su)", "(((", "30 @ (Mo-Su,Tu 24:00-00:00)"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		parts, skipped := ParseConditionalMaxspeed(s)
		if skipped < 0 {
			t.Fatal("negative skipped")
		}
		for _, p := range parts {
			if !(p.Kmh > 0 && p.Kmh <= MaxKmh) {
				t.Fatalf("%q: speed %v", s, p.Kmh)
			}
		}
	})
}
