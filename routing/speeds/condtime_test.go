package speeds

import (
	"slices"
	"testing"
)

// TestParseWeekSpans: minutes of the week worked out by hand (Monday
// 00:00 = 0, a day 1440 minutes).
func TestParseWeekSpans(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []WeekSpan
		bad  bool
	}{
		{in: "Mo-Fr 07:00-09:00", want: []WeekSpan{{420, 540}, {1860, 1980}, {3300, 3420}, {4740, 4860}, {6180, 6300}}},
		{in: "Sa,Su", want: []WeekSpan{{7200, 10080}}},
		{in: "We 07:30-08:15", want: []WeekSpan{{3330, 3375}}},
		// Past midnight, Sunday into Monday: the week wraps.
		{in: "Su 23:00-01:00", want: []WeekSpan{{0, 60}, {10020, 10080}}},
		{in: "Fr 22:00-24:00", want: []WeekSpan{{7080, 7200}}},
		{in: "Mo 07:00-09:00; Mo 08:00-10:00", want: []WeekSpan{{420, 600}}},
		{in: "Mo 07:00-09:00,16:00-18:00", want: []WeekSpan{{420, 540}, {960, 1080}}},
		{in: "wet", bad: true},
		{in: "Mo 25:00-26:00", bad: true},
		{in: "", bad: true},
	} {
		got, err := ParseWeekSpans(c.in)
		if (err != nil) != c.bad || !slices.Equal(got, c.want) {
			t.Errorf("%q: %v %v, want %v (error %v)", c.in, got, err, c.want, c.bad)
		}
	}
}

func TestSpanSets(t *testing.T) {
	a := []WeekSpan{{0, 100}, {200, 300}}
	b := []WeekSpan{{50, 250}}
	if got, want := ComplementSpans(a), []WeekSpan{{100, 200}, {300, WeekMinutes}}; !slices.Equal(got, want) {
		t.Errorf("complement %v, want %v", got, want)
	}
	if got, want := SubtractSpans(a, b), []WeekSpan{{0, 50}, {250, 300}}; !slices.Equal(got, want) {
		t.Errorf("subtract %v, want %v", got, want)
	}
	if got, want := IntersectSpans(a, b), []WeekSpan{{50, 100}, {200, 250}}; !slices.Equal(got, want) {
		t.Errorf("intersect %v, want %v", got, want)
	}
	for m, want := range map[int]bool{0: true, 99: true, 100: false, 199: false, 200: true, 299: true, 300: false, 10079: false} {
		if InSpans(a, m) != want {
			t.Errorf("InSpans(%d) = %v", m, !want)
		}
	}
	if h := HoursOf([]WeekSpan{{450, 481}}); !h[7] || !h[8] || h[6] || h[9] {
		t.Errorf("07:30-08:01 covers hours %v", hoursOf(h))
	}
}

// TestParseConditional: parts whose conditions are times, and the reason
// of each part skipped.
func TestParseConditional(t *testing.T) {
	for _, c := range []struct {
		in      string
		values  []string
		skipped []string
	}{
		{"no_left_turn @ (Mo-Fr 07:00-09:00)", []string{"no_left_turn"}, nil},
		{"none @ (Sa,Su); no_u_turn @ (22:00-06:00)", []string{"none", "no_u_turn"}, nil},
		{"no_left_turn @ (weight>7.5)", nil, []string{SkipVehicle}},
		{"no_left_turn @ wet", nil, []string{SkipWeather}},
		{"no_left_turn @ (Apr-Oct)", nil, []string{SkipDates}},
		{"no_left_turn @ (PH)", nil, []string{SkipDates}},
		{"no_left_turn @ (sunset-sunrise)", nil, []string{SkipSun}},
		{"no_left_turn @ (Mo-Fr 07:00-09:00 AND weight>3.5)", nil, []string{SkipCombined}},
		{"no_left_turn @ (Mo 7-9)", nil, []string{SkipMalformed}},
		{"no_left_turn", nil, []string{SkipNoCondition}},
		{"", nil, nil},
	} {
		parts, skipped := ParseConditional(c.in)
		var values []string
		for _, p := range parts {
			values = append(values, p.Value)
		}
		if !slices.Equal(values, c.values) || !slices.Equal(skipped, c.skipped) {
			t.Errorf("%q: %v skipped %v; want %v skipped %v", c.in, values, skipped, c.values, c.skipped)
		}
	}
}

// FuzzParseConditional: any value parses without panicking into spans
// inside the week, sorted and apart.
func FuzzParseConditional(f *testing.F) {
	for _, s := range []string{"no_left_turn @ (Mo-Fr 07:00-09:00)", "none @ (Sa,Su)", "a @ (Su 23:00-01:00); b @ (24:00-00:00)", "x @ ((Mo", "@", ";;", "no @ (Mo-Su 00:00-00:00)"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		parts, _ := ParseConditional(v)
		for _, p := range parts {
			for i, s := range p.Spans {
				if s.From < 0 || s.To > WeekMinutes || s.From >= s.To || i > 0 && s.From <= p.Spans[i-1].To {
					t.Fatalf("%q: spans %v", v, p.Spans)
				}
			}
		}
	})
}
