package api

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/geosvc/geosvc/geo/timezone"
)

// The years a timestamp of timezonesv1 may fall in: the tz database
// holds the world's rules since 1970 and much before; its rules extend
// to any future year.
const (
	tzMinYear = 1900
	tzMaxYear = 2099
)

// tzTimestampWant says what timestamp takes.
var tzTimestampWant = fmt.Sprintf("Unix seconds (an integer) or an RFC 3339 time such as 2013-07-15T12:00:00Z, from %d-01-01 to %d-12-31 UTC", tzMinYear, tzMaxYear)

// parseTZTimestamp reads timezonesv1's optional timestamp: Unix seconds
// or an RFC 3339 time (a lower-case t and z allowed). ok is false when it
// is absent; msg names the problem of a bad one.
func parseTZTimestamp(q url.Values) (at time.Time, ok bool, msg string) {
	vs, present := q["timestamp"]
	if !present || len(vs) == 0 {
		return time.Time{}, false, ""
	}
	v := strings.TrimSpace(vs[0])
	if v == "" {
		return time.Time{}, false, "timestamp is empty: give " + tzTimestampWant
	}
	if isUnixSeconds(v) {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < tzMinUnix || n > tzMaxUnix {
			return time.Time{}, false, fmt.Sprintf("timestamp %s is out of range: give %s", cutEcho(v), tzTimestampWant)
		}
		return time.Unix(n, 0).UTC(), true, ""
	}
	t, err := parseRFC3339(v)
	if err != nil {
		return time.Time{}, false, fmt.Sprintf("timestamp %s is not a valid timestamp: give %s%s%s", quoteEcho(v), tzTimestampWant, offsetReason(err), plusAsSpaceHint(v))
	}
	if u := t.Unix(); u < tzMinUnix || u > tzMaxUnix {
		return time.Time{}, false, fmt.Sprintf("timestamp %s is out of range: give %s", cutEcho(v), tzTimestampWant)
	}
	return t.UTC(), true, ""
}

// The first and last second of timestamp's range.
var (
	tzMinUnix = time.Date(tzMinYear, 1, 1, 0, 0, 0, 0, time.UTC).Unix()
	tzMaxUnix = time.Date(tzMaxYear+1, 1, 1, 0, 0, 0, 0, time.UTC).Unix() - 1
)

// isUnixSeconds reports whether v is an optionally signed run of digits.
func isUnixSeconds(v string) bool {
	v = strings.TrimPrefix(v, "-")
	if v == "" {
		return false
	}
	for i := 0; i < len(v); i++ {
		if v[i] < '0' || v[i] > '9' {
			return false
		}
	}
	return true
}

// appendTZInstant appends the members of an answer at an instant before
// the closing brace of ans (the xy2tzdata answer): timestamp (the instant
// in UTC), time_zone_id (IANA), raw_offset_s and dst_offset_s (seconds
// east of UTC; their sum is the offset at the instant) and abbreviation
// (the tz database's, in force at the instant).
func appendTZInstant(ans []byte, in *timezone.Instant) []byte {
	b := ans[:len(ans)-1]
	b = append(b, `,"timestamp":"`...)
	b = in.Time.AppendFormat(b, time.RFC3339)
	b = append(b, `","time_zone_id":`...)
	b = appendJSONString(b, in.ZoneID)
	b = append(b, `,"raw_offset_s":`...)
	b = strconv.AppendInt(b, int64(in.RawOffset), 10)
	b = append(b, `,"dst_offset_s":`...)
	b = strconv.AppendInt(b, int64(in.DSTOffset), 10)
	b = append(b, `,"abbreviation":`...)
	b = appendJSONString(b, in.Abbreviation)
	return append(b, '}')
}
