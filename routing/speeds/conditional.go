package speeds

import (
	"fmt"
	"strconv"
	"strings"
)

// Conditional maximum speeds: OSM's maxspeed:conditional
// (https://wiki.openstreetmap.org/wiki/Conditional_restrictions), as
// "30 @ (Mo-Fr 07:00-09:00, 14:00-16:00); 50 @ (22:00-06:00)". geosvc
// reads the time conditions of the opening_hours syntax that matter for
// speed limits: optional weekday selectors (Mo..Su, ranges and lists)
// then time ranges (HH:MM-HH:MM, lists, past midnight), or weekdays
// alone. Speeds apply by the hour: an hour counts when the window covers
// any part of it. Other conditions (wet, snow, weight, months, public
// holidays, sunrise) cannot be told from a clock: those parts are
// skipped and counted.

// CondMaxspeed is one part of a conditional maximum speed: the limit in
// km/h and the hours of the week it applies at.
type CondMaxspeed struct {
	Kmh   float64
	Hours [Hours]bool
}

// ParseConditionalMaxspeed reads a maxspeed:conditional value. It returns
// the parts it understood and how many it skipped (a value or condition
// that is not a time, or malformed).
func ParseConditionalMaxspeed(v string) (parts []CondMaxspeed, skipped int) {
	for _, part := range splitTopLevel(v, ';') {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		value, cond, ok := strings.Cut(part, "@")
		if !ok {
			skipped++
			continue
		}
		kmh, ok := parseLimit(strings.TrimSpace(value))
		if !ok {
			skipped++
			continue
		}
		cond = conditionOf(cond)
		hours, err := parseOpeningHours(cond)
		if err != nil {
			skipped++
			continue
		}
		parts = append(parts, CondMaxspeed{Kmh: kmh, Hours: hours})
	}
	return parts, skipped
}

// splitTopLevel splits s at sep outside parentheses.
func splitTopLevel(s string, sep byte) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(':
			depth++
		case ')':
			depth--
		case sep:
			if depth == 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	return append(out, s[start:])
}

// parseLimit reads "30", "30 mph" or "50 km/h".
func parseLimit(v string) (float64, bool) {
	num, unit, _ := strings.Cut(v, " ")
	kmh, err := strconv.ParseFloat(num, 64)
	if err != nil || kmh <= 0 {
		return 0, false
	}
	switch strings.TrimSpace(unit) {
	case "", "km/h", "kmh", "kph":
	case "mph":
		kmh *= 1.609344
	default:
		return 0, false
	}
	if kmh > MaxKmh {
		return 0, false
	}
	return kmh, true
}

// parseOpeningHours reads the time conditions of a condition
// (ParseWeekSpans) as the hours of the week they cover any part of.
func parseOpeningHours(s string) (h [Hours]bool, err error) {
	spans, err := ParseWeekSpans(s)
	if err != nil {
		return h, err
	}
	return HoursOf(spans), nil
}

var weekdayNames = [7]string{"Mo", "Tu", "We", "Th", "Fr", "Sa", "Su"}

// isDaySelector reports whether f starts with a weekday name.
func isDaySelector(f string) bool {
	return len(f) >= 2 && weekday(f[:2]) >= 0
}

func weekday(s string) int {
	for i, n := range weekdayNames {
		if s == n {
			return i
		}
	}
	return -1
}

// parseWeekdays reads "Mo-Fr", "Sa,Su" or "Mo-We,Fr".
func parseWeekdays(s string) (d [7]bool, err error) {
	for _, item := range strings.Split(s, ",") {
		a, b, isRange := strings.Cut(item, "-")
		i, j := weekday(a), weekday(b)
		if !isRange {
			j = i
		}
		if i < 0 || j < 0 {
			return d, fmt.Errorf("weekday %q", item)
		}
		for k := i; ; k = (k + 1) % 7 {
			d[k] = true
			if k == j {
				break
			}
		}
	}
	return d, nil
}

// clockMinutes reads "HH:MM" (24:00 allowed) as minutes of the day.
func clockMinutes(s string) (int, error) {
	hh, mm, ok := strings.Cut(strings.TrimSpace(s), ":")
	h, errH := strconv.Atoi(hh)
	m, errM := strconv.Atoi(mm)
	if !ok || errH != nil || errM != nil || len(mm) != 2 || h < 0 || h > 24 || m < 0 || m > 59 || (h == 24 && m != 0) {
		return 0, fmt.Errorf("time %q", s)
	}
	return h*60 + m, nil
}

// CapSegments returns the rows of a way's conditional maximum speed: for
// each pair of consecutive nodes, in the directions given (forward: along
// the nodes), one row per part and hour it applies at. Where two parts
// name the same hour the later wins, as in OSM's reading of conditions.
func CapSegments(nodes []int64, forward, backward bool, parts []CondMaxspeed) []Segment {
	var kmh [Hours]float64
	for _, p := range parts {
		for h, on := range p.Hours {
			if on {
				kmh[h] = p.Kmh
			}
		}
	}
	var out []Segment
	for i := 1; i < len(nodes); i++ {
		a, b := nodes[i-1], nodes[i]
		if a == b {
			continue
		}
		for h, v := range kmh {
			if v == 0 {
				continue
			}
			if forward {
				out = append(out, Segment{From: a, To: b, Kmh: v, Hour: h})
			}
			if backward {
				out = append(out, Segment{From: b, To: a, Kmh: v, Hour: h})
			}
		}
	}
	return out
}

// FormatCSV writes rows in the segment speed file format (ParseCSV reads
// it back): from_osm_node,to_osm_node,speed_kmh,,hour.
func FormatCSV(rows []Segment) []byte {
	var b []byte
	for _, r := range rows {
		b = strconv.AppendInt(b, r.From, 10)
		b = append(b, ',')
		b = strconv.AppendInt(b, r.To, 10)
		b = append(b, ',')
		b = strconv.AppendFloat(b, r.Kmh, 'f', -1, 64)
		b = append(b, ',', ',')
		if r.Hour != AllHours {
			b = strconv.AppendInt(b, int64(r.Hour), 10)
		}
		b = append(b, '\n')
	}
	return b
}
