package timezone

import (
	"fmt"
	"time"

	"github.com/geosvc/geosvc/geo/timezone/internal/tzdb"
)

// Naming is an abbreviation and a long name of a zone's standard or
// daylight-saving time ("EST", "Eastern Standard Time").
type Naming struct {
	// Abbreviation is CLDR's English short name where CLDR has one (EST,
	// EDT, HST), else the tz database's abbreviation at that time (CET,
	// CEST, AEST, or a numeric one like "+1030").
	Abbreviation string
	// Name is CLDR's English long name ("Central European Summer Time"),
	// else the GMT format ("GMT-03:00") for zones CLDR names no further.
	Name string
}

// Zone is a zone's data for one calendar year (in the zone's local time).
// A Zone is immutable once returned.
//
// Standard time is the zone's lowest UTC offset in the year and DST any
// higher one, as CLDR and everyday use have it: Europe/Dublin is GMT in
// winter and Irish Standard Time (DST here) in summer, although the tz
// database flags its winter time as the "negative DST".
type Zone struct {
	// Name is the IANA zone name ("America/New_York").
	Name string
	// Year is the calendar year the DST data belong to.
	Year int
	// StandardOffset is the standard UTC offset in seconds east of UTC.
	StandardOffset int
	// HasDST reports whether the zone observes DST in Year.
	HasDST bool
	// DSTOffset is the UTC offset during DST (0 when !HasDST).
	DSTOffset int
	// DSTStart is the instant DST begins in Year and DSTEnd the instant it
	// ends, in UTC; each is zero when it does not happen in Year. In the
	// southern hemisphere DSTEnd (April, the end of the period that began
	// the previous year) comes before DSTStart (October).
	DSTStart, DSTEnd time.Time
	// Standard and DST name the zone's standard time and DST (DST is zero
	// when !HasDST).
	Standard, DST Naming
	// Countries are the ISO 3166-1 alpha-3 codes of the countries in the
	// zone (IANA zone1970.tab and zone.tab); nil for Etc/GMT+N and such.
	Countries []string
}

// UTCOffset returns the standard offset in the specification's "UTC
// format": "UTC-05:00", "UTC+00:00", "UTC+12:45".
func (z *Zone) UTCOffset() string { return formatOffset("UTC", z.StandardOffset, false) }

// transition is a change of UTC offset.
type transition struct {
	at       time.Time
	from, to int
}

// maxPeriods bounds the zone periods walked in one year (real zones have
// at most a handful).
const maxPeriods = 64

// ComputeZone returns the data of zone name for the calendar year of at in
// that zone's local time. It loads the zone from Go's tz database and walks
// the year's transitions; Zones caches its results.
func ComputeZone(name string, at time.Time) (*Zone, error) {
	loc, err := LoadLocation(name)
	if err != nil {
		return nil, fmt.Errorf("timezone: %w", err)
	}
	return computeZone(name, loc, at.In(loc).Year()), nil
}

// computeZone returns the data of zone name (loaded as loc) for year.
func computeZone(name string, loc *time.Location, year int) *Zone {
	start := time.Date(year, time.January, 1, 0, 0, 0, 0, loc)
	end := time.Date(year+1, time.January, 1, 0, 0, 0, 0, loc)
	_, cur := start.Zone()
	minOff, maxOff := cur, cur
	var trs []transition
	for t, i := start, 0; i < maxPeriods; i++ {
		_, next := t.ZoneBounds()
		if next.IsZero() || !next.Before(end) {
			break
		}
		if _, o := next.Zone(); o != cur {
			trs = append(trs, transition{next, cur, o})
			cur = o
			minOff, maxOff = min(minOff, o), max(maxOff, o)
		}
		t = next
	}

	z := &Zone{Name: name, Year: year, StandardOffset: minOff, Countries: tzdb.Countries[name]}
	stdAt := instantWithOffset(start, trs, minOff)
	z.Standard = naming(name, stdAt, minOff, false)
	if maxOff == minOff {
		return z
	}
	z.HasDST = true
	z.DSTOffset = maxOff
	for _, tr := range trs {
		switch {
		case tr.from == minOff && tr.to > minOff && z.DSTStart.IsZero():
			z.DSTStart = tr.at.UTC()
		case tr.from > minOff && tr.to == minOff && z.DSTEnd.IsZero():
			z.DSTEnd = tr.at.UTC()
		}
	}
	z.DST = naming(name, instantWithOffset(start, trs, maxOff), maxOff, true)
	return z
}

// instantWithOffset returns the first instant of the year (from start, by
// the year's transitions) at which the UTC offset is off.
func instantWithOffset(start time.Time, trs []transition, off int) time.Time {
	if _, o := start.Zone(); o == off {
		return start
	}
	for _, tr := range trs {
		if tr.to == off {
			return tr.at
		}
	}
	return start
}

// naming returns the abbreviation and name of zone at t (whose offset is
// off), for its standard time or its DST.
func naming(zone string, t time.Time, off int, dst bool) Naming {
	n := cldrNames(zone, t.Unix())
	long, short := n.LongStandard, n.ShortStandard
	if dst {
		long, short = n.LongDaylight, n.ShortDaylight
	}
	if short == "" {
		short, _ = t.Zone()
	}
	if long == "" {
		long = formatOffset("GMT", off, true)
	}
	return Naming{Abbreviation: short, Name: long}
}

// cldrNames returns CLDR's English names of zone at Unix time sec: its
// metazone's, overridden field by field by the zone's own.
func cldrNames(zone string, sec int64) tzdb.Names {
	var n tzdb.Names
	for _, u := range tzdb.MetazoneUses[zone] {
		if (u.From == 0 || sec >= u.From) && (u.To == 0 || sec < u.To) {
			n = tzdb.MetazoneNames[u.Metazone]
			break
		}
	}
	if o, ok := tzdb.ZoneNames[zone]; ok {
		if o.LongStandard != "" {
			n.LongStandard = o.LongStandard
		}
		if o.LongDaylight != "" {
			n.LongDaylight = o.LongDaylight
		}
		if o.ShortStandard != "" {
			n.ShortStandard = o.ShortStandard
		}
		if o.ShortDaylight != "" {
			n.ShortDaylight = o.ShortDaylight
		}
	}
	return n
}

// formatOffset writes off (seconds east of UTC) as prefix+"±HH:MM"; with
// zeroBare, offset 0 is prefix alone (CLDR's gmtZeroFormat "GMT").
func formatOffset(prefix string, off int, zeroBare bool) string {
	if off == 0 && zeroBare {
		return prefix
	}
	sign := byte('+')
	if off < 0 {
		sign, off = '-', -off
	}
	m := off / 60
	return fmt.Sprintf("%s%c%02d:%02d", prefix, sign, m/60, m%60)
}
