package timezone

import (
	"time"

	"github.com/paulmach/orb"
)

// Instant is a zone's clock at one instant: its UTC offset split into the
// standard (raw) offset and the daylight-saving part, and the tz
// database's abbreviation in force.
type Instant struct {
	// Time is the instant, in UTC.
	Time time.Time
	// ZoneID is the IANA zone name ("Europe/Moscow").
	ZoneID string
	// RawOffset is the standard offset in seconds east of UTC in force at
	// Time; DSTOffset the daylight-saving part (never negative).
	// RawOffset + DSTOffset is the zone's UTC offset at Time.
	RawOffset, DSTOffset int
	// Abbreviation is the tz database's abbreviation at Time ("MSK",
	// "EDT", "+13" where it has no letters).
	Abbreviation string
}

// maxWalk bounds the periods walked from an instant to find the standard
// offset around it (real zones need one or two).
const maxWalk = 16

// InstantIn returns the clock of loc (named name) at t.
//
// Go's time package gives the total offset at t and whether the tz
// database flags its period as DST. The split follows from those flags:
//
//   - a period flagged DST has as standard offset that of the nearest
//     period not flagged DST before it or after it, whichever is below
//     the period's offset by less (Moscow's summer of 1991 is +3 DST on a
//     +2 standard that began that spring, after a +3 standard winter;
//     Samoa's +14 of 31 December 2011 is DST on the +13 that followed);
//   - the tz database's "negative DST" (Europe/Dublin's winter GMT,
//     Africa/Casablanca's Ramadan +00: flagged DST with an offset below
//     the standard one around them) is read the other way round, as
//     CLDR, the tz database's rearguard format and Google's API have it:
//     the lower offset is standard time and the higher one DST, so
//     DSTOffset is never negative (Dublin: GMT standard, IST DST);
//   - a period not flagged DST is standard time (DSTOffset 0) unless a
//     neighbouring period is such a negative DST (flagged DST, with a
//     lower offset than the periods not flagged DST on both its sides).
func InstantIn(name string, loc *time.Location, t time.Time) Instant {
	l := t.In(loc)
	abbr, off := l.Zone()
	in := Instant{Time: t.UTC(), ZoneID: name, RawOffset: off, Abbreviation: abbr}
	if l.IsDST() {
		best := 0
		for _, dir := range []int{-1, 1} {
			if std, ok := nearestStandard(l, dir); ok && std < off && (best == 0 || off-std < best) {
				best = off - std
			}
		}
		in.RawOffset, in.DSTOffset = off-best, best
		// Otherwise a negative DST (or a zone never off DST): the
		// period's own offset is the standard one.
		return in
	}
	for _, dir := range []int{-1, 1} {
		n, ok := step(l, dir)
		if !ok || !n.IsDST() {
			continue
		}
		// A negative DST lies below standard time on both sides: beyond
		// it (away from l) the next period not flagged DST is higher too
		// (Vilnius' CEST of 1944 before the MSK of 1980 is no such one).
		_, o := n.Zone()
		if beyond, ok := nearestStandard(n, dir); o < off && ok && beyond > o {
			in.RawOffset, in.DSTOffset = o, off-o
			break
		}
	}
	return in
}

// nearestStandard returns the offset of the nearest period not flagged
// DST before l's period (dir -1) or after it (dir 1).
func nearestStandard(l time.Time, dir int) (int, bool) {
	t := l
	for range maxWalk {
		n, ok := step(t, dir)
		if !ok {
			return 0, false
		}
		if !n.IsDST() {
			_, o := n.Zone()
			return o, true
		}
		t = n
	}
	return 0, false
}

// step returns an instant in the period before (dir -1) or after (dir 1)
// the period of t, false when there is none (the first period, or the
// last one of a zone without further transitions).
func step(t time.Time, dir int) (time.Time, bool) {
	start, end := t.ZoneBounds()
	if dir < 0 {
		if start.IsZero() {
			return time.Time{}, false
		}
		return start.Add(-time.Second), true
	}
	if end.IsZero() {
		return time.Time{}, false
	}
	return end, true
}

// LookupAt returns the time-zone data of p (lon, lat) at instant at: the
// zone's data for its calendar year at that instant (DST start and end,
// names), and the clock at that instant (Result.At).
func (ix *Index) LookupAt(p orb.Point, at time.Time) (Result, error) {
	name := ix.finder.Zone(p)
	if name == "" {
		return Result{}, ErrNoZone
	}
	z, err := ix.zones.At(name, at)
	if err != nil {
		return Result{}, err
	}
	loc, err := ix.zones.location(name)
	if err != nil {
		return Result{}, err
	}
	in := InstantIn(name, loc, at)
	r := Result{Zone: z, BoundaryNames: ix.BoundaryNames(name), At: &in}
	if ix.areas != nil {
		r.Area, r.InArea = ix.areas.MostSpecific(p)
	}
	return r, nil
}
