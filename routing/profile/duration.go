package profile

import (
	"math"
	"strconv"
	"strings"
)

// maxDurationS bounds a parsed duration (a week): anything longer is a
// tagging error, not a ferry crossing.
const maxDurationS = 7 * 24 * 3600

// parseDuration parses a ferry duration tag into seconds: ISO 8601
// ("PT1H30M", "PT45M", "P1DT2H", "PT90S"), "HH:MM", "H:MM", "HH:MM:SS" or
// plain minutes ("90", "7.5"). ok is false for anything else, negative or
// longer than a week; seconds is then 0.
func parseDuration(v string) (seconds float64, ok bool) {
	s := strings.ToUpper(strings.TrimSpace(v))
	var d float64
	switch {
	case s == "":
		return 0, false
	case s[0] == 'P':
		d, ok = parseISODuration(s[1:])
	case strings.Contains(s, ":"):
		d, ok = parseClock(s)
	default:
		var m float64
		m, ok = parseUnsigned(s)
		d = m * 60
	}
	if !ok || math.IsNaN(d) || d < 0 || d > maxDurationS {
		return 0, false
	}
	return d, true
}

// parseClock parses "H:MM" or "H:MM:SS".
func parseClock(s string) (float64, bool) {
	parts := strings.Split(s, ":")
	if len(parts) < 2 || len(parts) > 3 {
		return 0, false
	}
	var d float64
	for i, p := range parts {
		n, ok := parseUnsigned(p)
		if !ok || (i > 0 && (n >= 60 || len(p) != 2)) {
			return 0, false
		}
		d = d*60 + n
	}
	if len(parts) == 2 {
		d *= 60
	}
	return d, true
}

// parseISODuration parses the part after "P": [nW][nD][T[nH][nM][nS]].
func parseISODuration(s string) (float64, bool) {
	var d float64
	inTime, any := false, false
	for len(s) > 0 {
		if s[0] == 'T' {
			if inTime {
				return 0, false
			}
			inTime = true
			s = s[1:]
			if s == "" {
				return 0, false
			}
			continue
		}
		i := 0
		for i < len(s) && (s[i] >= '0' && s[i] <= '9' || s[i] == '.' || s[i] == ',') {
			i++
		}
		if i == 0 || i == len(s) {
			return 0, false
		}
		n, ok := parseUnsigned(strings.ReplaceAll(s[:i], ",", "."))
		if !ok {
			return 0, false
		}
		f := isoUnitSeconds(s[i], inTime)
		if f == 0 {
			return 0, false
		}
		d += n * f
		any = true
		s = s[i+1:]
	}
	return d, any
}

// isoUnitSeconds returns the seconds of an ISO 8601 duration unit letter,
// 0 for an unknown one. M is minutes after T and months (unsupported)
// before it.
func isoUnitSeconds(c byte, inTime bool) float64 {
	switch {
	case !inTime && c == 'W':
		return 7 * 86400
	case !inTime && c == 'D':
		return 86400
	case inTime && c == 'H':
		return 3600
	case inTime && c == 'M':
		return 60
	case inTime && c == 'S':
		return 1
	}
	return 0
}

// parseUnsigned parses a non-negative decimal number of digits and at most
// one dot.
func parseUnsigned(s string) (float64, bool) {
	if s == "" || len(s) > 12 {
		return 0, false
	}
	for i := 0; i < len(s); i++ {
		if !(s[i] >= '0' && s[i] <= '9' || s[i] == '.') {
			return 0, false
		}
	}
	n, err := strconv.ParseFloat(s, 64)
	if err != nil || n < 0 || math.IsInf(n, 0) {
		return 0, false
	}
	return n, true
}
