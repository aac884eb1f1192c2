package profile

import (
	"strconv"
	"strings"
)

// Unit conversions to km/h.
const (
	kmhPerMph  = 1.609344
	kmhPerKnot = 1.852
	// maxParsedKmh bounds what parseMaxspeed accepts as a number; anything
	// larger is garbage, not a limit.
	maxParsedKmh = 1000
)

// Zones is the maxspeed zone table of a profile (maxspeed.zones,
// zone_defaults, none_kmh, urban_zone_suffixes in the YAML).
type Zones struct {
	// Exact maps lower-case zone values ("de:urban") to km/h; 0 means the
	// zone has no general limit (the class speed applies).
	Exact map[string]float64
	// BySuffix maps a zone suffix ("urban") to km/h, for zones not in Exact.
	BySuffix map[string]float64
	// NoneKmh is the limit assumed for maxspeed=none.
	NoneKmh float64
	// Urban holds the suffixes of built-up-area zones.
	Urban map[string]bool
}

// maxspeed is a parsed maxspeed value.
type maxspeed struct {
	// Kmh is the limit in km/h, 0 when the value gives no usable limit
	// ("walk", "signals", garbage, a zone without a general limit).
	Kmh float64
	// None is true for maxspeed=none (Kmh is then Zones.NoneKmh).
	None bool
	// Zone is the lower-case zone value ("de:urban") when the value was one.
	Zone string
	// Urban is true for a zone of a built-up area (DE:urban, FR:zone30).
	Urban bool
}

// Known reports whether the value gave a usable limit.
func (m maxspeed) Known() bool { return m.Kmh > 0 }

// parseMaxspeed parses an OSM maxspeed value: "50", "50 km/h", "30 mph",
// "30mph", "10 knots", "none", zone values ("DE:rural", "US:urban",
// "RO:urban", "FR:zone30", "DE:zone:30") looked up in zones. For a list
// ("50;70") the first value counts, as in OSRM. "walk", "signals",
// "variable" and garbage give a zero maxspeed (no limit known). The result
// never has a negative, NaN or infinite Kmh.
func parseMaxspeed(v string, zones Zones) maxspeed {
	s := strings.TrimSpace(v)
	if i := strings.IndexByte(s, ';'); i >= 0 {
		s = strings.TrimSpace(s[:i])
	}
	s = strings.ToLower(s)
	if s == "" {
		return maxspeed{}
	}
	if s == "none" {
		return maxspeed{Kmh: positiveOrZero(zones.NoneKmh), None: true}
	}
	if kmh, ok := parseNumericSpeed(s); ok {
		return maxspeed{Kmh: kmh}
	}
	colon := strings.IndexByte(s, ':')
	if colon <= 0 || !isZoneCountry(s[:colon]) {
		return maxspeed{}
	}
	m := maxspeed{Zone: s}
	suffix := s[colon+1:]
	if kmh, ok := zones.Exact[s]; ok {
		m.Kmh = positiveOrZero(kmh)
	} else if kmh, ok := zoneNumber(suffix); ok {
		m.Kmh = kmh
		m.Urban = true
		return m
	} else {
		base := suffix
		if i := strings.LastIndexByte(base, ':'); i >= 0 {
			base = base[i+1:]
		}
		m.Kmh = positiveOrZero(zones.BySuffix[base])
	}
	if strings.HasPrefix(suffix, "zone") {
		m.Urban = zones.Urban["zone"]
	} else {
		m.Urban = zones.Urban[suffix]
	}
	return m
}

// parseNumericSpeed parses "50", "50.5", "50 km/h", "50kmh", "50 kph",
// "30 mph", "30mph", "10 knots" (lower case) into km/h.
func parseNumericSpeed(s string) (float64, bool) {
	i := 0
	for i < len(s) && (s[i] >= '0' && s[i] <= '9' || s[i] == '.') {
		i++
	}
	if i == 0 {
		return 0, false
	}
	n, err := strconv.ParseFloat(s[:i], 64)
	if err != nil || !(n > 0) {
		return 0, false
	}
	switch strings.TrimSpace(s[i:]) {
	case "", "km/h", "kmh", "kph", "kmph", "km/hr":
	case "mph", "mp/h":
		n *= kmhPerMph
	case "knots", "knot", "kn":
		n *= kmhPerKnot
	default:
		return 0, false
	}
	if n > maxParsedKmh {
		return 0, false
	}
	return n, true
}

// zoneNumber reads the NN of "zoneNN" or "zone:NN" suffixes.
func zoneNumber(suffix string) (float64, bool) {
	rest, ok := strings.CutPrefix(suffix, "zone")
	if !ok {
		return 0, false
	}
	rest = strings.TrimPrefix(rest, ":")
	return parseNumericSpeed(rest)
}

// isZoneCountry accepts "de", "be-bru", "ca-on": letters with an optional
// "-region" part.
func isZoneCountry(s string) bool {
	if len(s) < 2 || len(s) > 8 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c == '-' && i >= 2) {
			return false
		}
	}
	return true
}

func positiveOrZero(v float64) float64 {
	if v > 0 && v <= maxParsedKmh {
		return v
	}
	return 0
}
