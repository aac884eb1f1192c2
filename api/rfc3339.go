package api

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

// errOffsetRange is parseRFC3339's error for an offset RFC 3339 does not
// have.
var errOffsetRange = errors.New("RFC 3339 offsets are -23:59 to +23:59")

// parseRFC3339 parses an RFC 3339 date-time (fractional seconds allowed,
// a lower-case t and z too) as every time parameter of the REST
// interfaces takes it: departure_time and arrival_time (routev1, tdmv1,
// isochronev1, the OSRM API), timezonesv1's timestamp and matchv1's
// point times. Go's time.Parse also takes the offsets +24:00 and +23:60,
// which RFC 3339's time-numoffset (hours 00-23, minutes 00-59) does not
// have; they are refused, as -25:00 already is.
func parseRFC3339(v string) (time.Time, error) {
	t, err := time.Parse(time.RFC3339Nano, strings.ToUpper(v))
	if err != nil {
		return time.Time{}, err
	}
	// The parse succeeded: v ends in Z or in a numeric offset ±hh:mm.
	if n := len(v); n >= 6 && (v[n-6] == '+' || v[n-6] == '-') && v[n-3] == ':' {
		if hh, mm := v[n-5:n-3], v[n-2:]; hh > "23" || mm > "59" {
			return time.Time{}, fmt.Errorf("the offset %s is out of range: %w", v[n-6:], errOffsetRange)
		}
	}
	return t, nil
}

// offsetReason returns ": " and parseRFC3339's error when it refused an
// offset out of range (the value has the form of a time, so the general
// message alone would not say what is wrong), else "".
func offsetReason(err error) string {
	if errors.Is(err, errOffsetRange) {
		return ": " + err.Error()
	}
	return ""
}

// plusAsSpaceHint explains a value that a URL query string turned into
// an invalid time by reading a positive offset's '+' as a space
// (2026-11-30T08:30:00 01:00): only when the value with that space
// written as '+' is a valid time, "" otherwise (2026-11-30 08:30:00Z has
// a space where no offset goes).
func plusAsSpaceHint(v string) string {
	if strings.Count(v, " ") != 1 {
		return ""
	}
	if _, err := parseRFC3339(strings.Replace(v, " ", "+", 1)); err != nil {
		return ""
	}
	return " (a '+' in a URL query string is a space: write a positive offset as %2B)"
}
