package profile

import (
	"math"
	"strconv"
	"strings"
)

// Dimension limits read from OSM tags (maxheight, maxwidth, maxlength,
// maxweight, maxaxleload).
const (
	// cmPerFoot and cmPerInch convert imperial lengths.
	cmPerFoot = 30.48
	cmPerInch = 2.54
	// kgPerShortTon, kgPerLongTon and kgPerPound convert imperial weights.
	kgPerShortTon = 907.18474
	kgPerLongTon  = 1016.0469088
	kgPerPound    = 0.45359237
	// maxLengthCm and maxWeightKg bound a parsed value: anything larger
	// is garbage (a typo), not a limit.
	maxLengthCm = 100 * 100
	maxWeightKg = 1000 * 1000
)

// Limit is a parsed dimension tag: a limit in centimetres or kilograms.
type Limit struct {
	// Value is the limit (cm or kg), 0 when the tag gives none.
	Value uint32
	// BelowDefault is true for "below_default": lower than the legal
	// default, by an amount the tag does not say.
	BelowDefault bool
}

// firstValue is a tag value's first ";" part, trimmed and lower-cased.
func firstValue(v string) string {
	if i := strings.IndexByte(v, ';'); i >= 0 {
		v = v[:i]
	}
	return strings.ToLower(strings.TrimSpace(v))
}

// noLimit lists the values that state there is no limit beyond the
// legal default (OSM wiki Key:maxheight, non-numerical values).
var noLimit = map[string]bool{"none": true, "default": true, "no": true, "no-sign": true, "no_sign": true, "unsigned": true}

// ParseLength reads a maxheight, maxwidth or maxlength value: metres
// ("4.5", "4.5 m", "4,5"), centimetres ("450 cm"), feet and inches
// ("12'6\"", "12' 6”", "12 ft 6 in", "14 ft", "15.5 feet", "150 in").
// For a list the first value counts. "none", "default", "no-sign" and
// "unsigned" give no limit; "below_default" gives BelowDefault. ok is
// false for garbage, zero, negative or absurd (100 m or more) values.
func ParseLength(v string) (l Limit, ok bool) {
	s := firstValue(v)
	if l, ok, done := wordLimit(s); done {
		return l, ok
	}
	cm, ok := lengthCm(s)
	if !ok || !(cm >= 1) || cm >= maxLengthCm {
		return Limit{}, false
	}
	return Limit{Value: uint32(math.Round(cm))}, true
}

// lengthCm reads a length with its unit into centimetres.
func lengthCm(s string) (float64, bool) {
	num, rest := leadingNumber(s)
	if num < 0 {
		return 0, false
	}
	rest = strings.TrimSpace(rest)
	switch rest {
	case "", "m", "metre", "meter", "metres", "meters":
		return num * 100, true
	case "cm":
		return num, true
	case "\"", "''", "in", "inch", "inches":
		return num * cmPerInch, true
	}
	for _, u := range []string{"'", "ft", "feet", "foot"} {
		if r, found := strings.CutPrefix(rest, u); found {
			rest = strings.TrimSpace(r)
			cm := num * cmPerFoot
			if rest == "" {
				return cm, true
			}
			in, tail := leadingNumber(rest)
			if in < 0 || in >= 12 {
				return 0, false
			}
			switch strings.TrimSpace(tail) {
			case "", "\"", "''", "in", "inch", "inches":
				return cm + in*cmPerInch, true
			}
			return 0, false
		}
	}
	return 0, false
}

// leadingNumber splits a non-negative decimal number ("4.5", "4,5")
// from the start of s; it returns -1 when s does not start with one.
func leadingNumber(s string) (float64, string) {
	i, dot := 0, false
	for ; i < len(s); i++ {
		c := s[i]
		if c >= '0' && c <= '9' {
			continue
		}
		if (c == '.' || c == ',') && !dot && i > 0 && i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '9' {
			dot = true
			continue
		}
		break
	}
	if i == 0 {
		return -1, s
	}
	f, err := strconv.ParseFloat(strings.Replace(s[:i], ",", ".", 1), 64)
	if err != nil {
		return -1, s
	}
	return f, s[i:]
}

// wordLimit reads the values that are words rather than numbers: done
// is true when s is one (or empty), with its limit and ok.
func wordLimit(s string) (l Limit, ok, done bool) {
	switch {
	case s == "":
		return Limit{}, false, true
	case noLimit[s]:
		return Limit{}, true, true
	case s == "below_default":
		return Limit{BelowDefault: true}, true, true
	}
	return Limit{}, false, false
}

// ParseWeight reads a maxweight or maxaxleload value: metric tonnes
// ("7.5", "7.5 t", "7.5 tonnes"), kilograms ("7500 kg"), short tons
// ("10 st", and "10 tons" or "10 ton", as US signs write short tons),
// long tons ("10 lt") and pounds ("20000 lbs", "20000 lb"). For a list
// the first value counts. "none", "default", "no-sign" and "unsigned"
// give no limit; "below_default" gives BelowDefault. ok is false for
// garbage, zero, negative or absurd (1000 t or more) values.
func ParseWeight(v string) (l Limit, ok bool) {
	s := firstValue(v)
	if l, ok, done := wordLimit(s); done {
		return l, ok
	}
	num, rest := leadingNumber(s)
	if num < 0 {
		return Limit{}, false
	}
	var kg float64
	switch strings.TrimSpace(rest) {
	case "", "t", "tonne", "tonnes", "mt":
		kg = num * 1000
	case "kg":
		kg = num
	case "st", "ton", "tons", "short ton", "short tons":
		kg = num * kgPerShortTon
	case "lt", "long ton", "long tons":
		kg = num * kgPerLongTon
	case "lb", "lbs", "pound", "pounds":
		kg = num * kgPerPound
	default:
		return Limit{}, false
	}
	if !(kg >= 1) || kg >= maxWeightKg {
		return Limit{}, false
	}
	return Limit{Value: uint32(math.Round(kg))}, true
}
