package speeds

import (
	"bytes"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// csvFields names the columns of a segment speed row.
var csvFields = [...]string{"from_osm_node", "to_osm_node", "speed_kmh", "rate", "hour"}

// ParseCSV reads a segment speed file: one row per line,
// from_osm_node,to_osm_node,speed_kmh[,rate[,hour]] (rate may be empty
// when an hour follows). Blank lines and lines starting with # are
// skipped, and so is a first line naming the columns (starting with
// from_osm_node). Node ids are positive and differ; a speed is > 0 and at
// most MaxKmh km/h; a rate, when given, > 0; an hour 0..167. A segment
// given twice for one hour (or twice for every hour) is an error naming
// both lines. Errors are *Error naming the line and the field.
func ParseCSV(b []byte) (*Data, error) {
	if len(b) > MaxBytes {
		return nil, &Error{Field: "file", Msg: fmt.Sprintf("is %d bytes, more than the %d accepted", len(b), MaxBytes)}
	}
	d := &Data{Version: versionOf(b), Format: "csv"}
	type key struct {
		from, to int64
		hour     int
	}
	seen := map[key]int{}
	line := 0
	for rest := b; len(rest) > 0; {
		var l []byte
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			l, rest = rest[:i], rest[i+1:]
		} else {
			l, rest = rest, nil
		}
		line++
		l = bytes.TrimRight(l, "\r")
		t := bytes.TrimSpace(l)
		if len(t) == 0 || t[0] == '#' {
			continue
		}
		if line == 1 && bytes.HasPrefix(t, []byte("from_osm_node")) {
			continue
		}
		s, err := parseRow(string(t), line)
		if err != nil {
			return nil, err
		}
		k := key{s.From, s.To, s.Hour}
		if prev, dup := seen[k]; dup {
			at := "every hour"
			if s.Hour != AllHours {
				at = "hour " + strconv.Itoa(s.Hour)
			}
			return nil, &Error{Line: line, Field: "from_osm_node", Msg: fmt.Sprintf("segment %d->%d at %s is already given on line %d", s.From, s.To, at, prev)}
		}
		seen[k] = line
		d.Segments = append(d.Segments, s)
	}
	return d, nil
}

// parseRow reads one row.
func parseRow(t string, line int) (Segment, error) {
	f := strings.Split(t, ",")
	if len(f) < 3 || len(f) > 5 {
		return Segment{}, &Error{Line: line, Field: "row", Msg: fmt.Sprintf("has %d fields: want from_osm_node,to_osm_node,speed_kmh[,rate[,hour]]", len(f))}
	}
	s := Segment{Hour: AllHours, Line: line}
	for i := range f {
		f[i] = strings.TrimSpace(f[i])
	}
	for i, p := range []*int64{&s.From, &s.To} {
		v, err := strconv.ParseInt(f[i], 10, 64)
		if err != nil || v <= 0 {
			return Segment{}, &Error{Line: line, Field: csvFields[i], Msg: fmt.Sprintf("%q is not an OSM node id (a positive integer)", f[i])}
		}
		*p = v
	}
	if s.From == s.To {
		return Segment{}, &Error{Line: line, Field: csvFields[1], Msg: fmt.Sprintf("is the from node %d: a segment joins two nodes", s.From)}
	}
	v, err := strconv.ParseFloat(f[2], 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return Segment{}, &Error{Line: line, Field: csvFields[2], Msg: fmt.Sprintf("%q is not a number", f[2])}
	}
	if v <= 0 || v > MaxKmh {
		return Segment{}, &Error{Line: line, Field: csvFields[2], Msg: fmt.Sprintf("%v km/h is out of range (want > 0 and <= %d; a closed road is not a speed)", v, MaxKmh)}
	}
	s.Kmh = v
	if len(f) >= 4 && f[3] != "" {
		r, err := strconv.ParseFloat(f[3], 64)
		if err != nil || math.IsNaN(r) || math.IsInf(r, 0) || r <= 0 {
			return Segment{}, &Error{Line: line, Field: csvFields[3], Msg: fmt.Sprintf("%q is not a positive number", f[3])}
		}
		s.Rate = r
	}
	if len(f) == 5 {
		h, err := strconv.Atoi(f[4])
		if err != nil || h < 0 || h >= Hours {
			return Segment{}, &Error{Line: line, Field: csvFields[4], Msg: fmt.Sprintf("%q is not an hour of the week (an integer 0..167, 0 = Monday 00:00-00:59 local time)", f[4])}
		}
		s.Hour = h
	}
	return s, nil
}
