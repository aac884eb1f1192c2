package speeds

import (
	"fmt"
	"slices"
	"strings"
)

// Time conditions to the minute: the conditional turn restrictions
// (restriction:conditional) and the hours of conditional maximum speeds
// read the same opening-hours subset (ParseConditionalMaxspeed), as
// spans of minutes of the week.

// WeekMinutes is the number of minutes in a week.
const WeekMinutes = 7 * 24 * 60

// WeekSpan is the minutes of the week [From, To) in local time, 0 =
// Monday 00:00; 0 <= From < To <= WeekMinutes.
type WeekSpan struct {
	From, To int
}

// ParseWeekSpans reads a time condition (without its parentheses):
// rules separated by ";", each "[weekdays] [times]" with weekdays as
// "Mo-Fr", "Sa,Su" or "Mo-We,Fr" and times as "07:00-09:00,16:00-18:00"
// (a range whose end is not after its start runs past midnight into the
// next day); weekdays alone cover those days, times alone every day. It
// returns the minutes covered, sorted and merged.
func ParseWeekSpans(s string) ([]WeekSpan, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil, fmt.Errorf("empty condition")
	}
	var out []WeekSpan
	for _, rule := range strings.Split(s, ";") {
		rule = strings.TrimSpace(rule)
		days, times := allDays(), rule
		if f := strings.Fields(rule); len(f) > 0 && isDaySelector(f[0]) {
			var err error
			if days, err = parseWeekdays(f[0]); err != nil {
				return nil, err
			}
			times = strings.TrimSpace(strings.TrimPrefix(rule, f[0]))
		}
		ranges := [][2]int{{0, 24 * 60}}
		if times != "" {
			ranges = ranges[:0]
			for _, r := range strings.Split(times, ",") {
				from, to, ok := strings.Cut(strings.TrimSpace(r), "-")
				a, errA := clockMinutes(from)
				b, errB := clockMinutes(to)
				if !ok || errA != nil || errB != nil {
					return nil, fmt.Errorf("time range %q", r)
				}
				ranges = append(ranges, [2]int{a, b})
			}
		}
		for d := 0; d < 7; d++ {
			if !days[d] {
				continue
			}
			for _, r := range ranges {
				a, b := r[0], r[1]
				if b > a {
					out = append(out, WeekSpan{d*1440 + a, d*1440 + b})
					continue
				}
				// Past midnight: to midnight, then the next day's start.
				out = append(out, WeekSpan{d*1440 + a, d*1440 + 1440})
				if b > 0 {
					n := (d + 1) % 7
					out = append(out, WeekSpan{n * 1440, n*1440 + b})
				}
			}
		}
	}
	return MergeSpans(out), nil
}

// MergeSpans sorts spans and merges those that overlap or touch.
func MergeSpans(spans []WeekSpan) []WeekSpan {
	spans = slices.Clone(spans)
	slices.SortFunc(spans, func(a, b WeekSpan) int { return a.From - b.From })
	var out []WeekSpan
	for _, s := range spans {
		if s.To <= s.From {
			continue
		}
		if n := len(out); n > 0 && s.From <= out[n-1].To {
			out[n-1].To = max(out[n-1].To, s.To)
			continue
		}
		out = append(out, s)
	}
	return out
}

// ComplementSpans returns the minutes of the week that spans (sorted and
// merged) do not cover.
func ComplementSpans(spans []WeekSpan) []WeekSpan {
	var out []WeekSpan
	at := 0
	for _, s := range spans {
		if s.From > at {
			out = append(out, WeekSpan{at, s.From})
		}
		at = max(at, s.To)
	}
	if at < WeekMinutes {
		out = append(out, WeekSpan{at, WeekMinutes})
	}
	return out
}

// SubtractSpans returns the minutes of a not in b (both sorted and
// merged).
func SubtractSpans(a, b []WeekSpan) []WeekSpan {
	return IntersectSpans(a, ComplementSpans(b))
}

// IntersectSpans returns the minutes in both a and b (both sorted and
// merged).
func IntersectSpans(a, b []WeekSpan) []WeekSpan {
	var out []WeekSpan
	for i, j := 0, 0; i < len(a) && j < len(b); {
		from, to := max(a[i].From, b[j].From), min(a[i].To, b[j].To)
		if from < to {
			out = append(out, WeekSpan{from, to})
		}
		if a[i].To < b[j].To {
			i++
		} else {
			j++
		}
	}
	return out
}

// InSpans reports whether minute of the week m lies in spans.
func InSpans(spans []WeekSpan, m int) bool {
	i, _ := slices.BinarySearchFunc(spans, m, func(s WeekSpan, m int) int {
		if s.To <= m {
			return -1
		}
		if s.From > m {
			return 1
		}
		return 0
	})
	return i < len(spans) && spans[i].From <= m && m < spans[i].To
}

// HoursOf returns the hours of the week spans cover any part of.
func HoursOf(spans []WeekSpan) (h [Hours]bool) {
	for _, s := range spans {
		for hr := s.From / 60; hr*60 < s.To && hr < Hours; hr++ {
			h[hr] = true
		}
	}
	return h
}

// CondValue is one part of a conditional tag ("value @ (condition)")
// whose condition is a time: the value and the minutes it applies at.
type CondValue struct {
	Value string
	Spans []WeekSpan
}

// Reasons a part of a conditional tag is not read as a time, as build
// reports count them.
const (
	SkipNoCondition = "no @ condition"
	SkipWeather     = "weather (wet, snow, ...)"
	SkipVehicle     = "vehicle property (weight, length, ...)"
	SkipDates       = "months, dates or holidays"
	SkipSun         = "sunrise or sunset"
	SkipCombined    = "combined condition (AND)"
	SkipMalformed   = "malformed time"
)

// ParseConditional reads a conditional tag's value ("no_left_turn @
// (Mo-Fr 07:00-09:00); none @ (Sa,Su)"): the parts whose conditions are
// times, in order, and a reason (one of the Skip constants) for each
// part that is not.
func ParseConditional(v string) (parts []CondValue, skipped []string) {
	for _, part := range splitTopLevel(v, ';') {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		value, cond, ok := strings.Cut(part, "@")
		if !ok {
			skipped = append(skipped, SkipNoCondition)
			continue
		}
		cond = conditionOf(cond)
		spans, err := ParseWeekSpans(cond)
		if err != nil {
			skipped = append(skipped, skipReason(cond))
			continue
		}
		parts = append(parts, CondValue{Value: strings.TrimSpace(value), Spans: spans})
	}
	return parts, skipped
}

// skipReason names why a condition is not a time.
func skipReason(cond string) string {
	c := strings.ToLower(cond)
	has := func(words ...string) bool {
		for _, w := range words {
			if strings.Contains(c, w) {
				return true
			}
		}
		return false
	}
	switch {
	case has(" and "):
		return SkipCombined
	case has("wet", "snow", "dry", "fog", "ice", "flood", "winter", "summer"):
		return SkipWeather
	case has("weight", "length", "width", "height", "axle", "occupants", "trailer", "<", ">", "="):
		return SkipVehicle
	case has("sunrise", "sunset", "dawn", "dusk"):
		return SkipSun
	case has("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec", "ph", "sh", "easter"):
		return SkipDates
	}
	return SkipMalformed
}

// conditionOf returns the condition after a conditional value's "@",
// trimmed and without its parentheses.
func conditionOf(cond string) string {
	cond = strings.TrimSpace(cond)
	if strings.HasPrefix(cond, "(") && strings.HasSuffix(cond, ")") {
		cond = cond[1 : len(cond)-1]
	}
	return cond
}
