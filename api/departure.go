package api

import (
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/bundle"
	"github.com/geosvc/geosvc/geo/timezone"
	"github.com/geosvc/geosvc/queue"
	"github.com/geosvc/geosvc/routing"
)

// maxTripTimeAwayDays is how far from now, in days, a departure or
// arrival time may be: 366, so that the same date next year is in range
// across a 29 February. The docs and messages say "366 days".
const maxTripTimeAwayDays = 366

// maxTripTimeAway is maxTripTimeAwayDays as a duration.
const maxTripTimeAway = maxTripTimeAwayDays * 24 * time.Hour

// tripTimeWant says what a departure_time or arrival_time takes. A time
// with its offset is an exact instant; the origin's time zone then says
// which local hour it is.
const tripTimeWant = `an RFC 3339 time with its offset, such as 2026-03-09T08:00:00-04:00 or 2026-03-09T12:00:00Z, or "now"`

// parseTripTime reads a departure_time or arrival_time: an RFC 3339
// time (parseRFC3339) or "now", from 1970 on and at most 366 days from
// now. It returns the reason it is invalid.
func parseTripTime(v string, now time.Time) (time.Time, string) {
	v = strings.TrimSpace(v)
	if strings.EqualFold(v, "now") {
		return now, ""
	}
	t, err := parseRFC3339(v)
	if err != nil {
		return time.Time{}, fmt.Sprintf("%s is not %s%s%s", quoteEcho(v), tripTimeWant, offsetReason(err), plusAsSpaceHint(v))
	}
	switch {
	case t.Before(time.Unix(0, 0)):
		return time.Time{}, fmt.Sprintf("%s is before 1970", v)
	case t.Sub(now) > maxTripTimeAway || now.Sub(t) > maxTripTimeAway:
		return time.Time{}, fmt.Sprintf("%s is more than %d days away from now (%s)", v, maxTripTimeAwayDays, now.UTC().Format(time.RFC3339))
	}
	return t, ""
}

// tripClock is a trip time read at a place: the local time and its
// hour of the week (0 = Monday 00:00-00:59).
type tripClock struct {
	Local time.Time
	Zone  string
	Hour  int
}

// hourOfWeek returns t's hour of the week in its location.
func hourOfWeek(t time.Time) int {
	return (int(t.Weekday())+6)%7*24 + t.Hour()
}

var locations sync.Map // zone name -> *time.Location

// localClock reads t in the time zone of p (the bundle's time-zone
// layer; UTC where it has none, or no zone covers p). Daylight saving
// time follows the zone's rules: on the night the clocks change the
// same instant is read as the hour the local clock shows.
func localClock(b *bundle.Bundle, p orb.Point, t time.Time) tripClock {
	zone := ""
	if b != nil && b.TimeZones != nil {
		zone = b.TimeZones.ZoneName(p)
	}
	loc := time.UTC
	if zone != "" {
		if l, ok := locations.Load(zone); ok {
			loc = l.(*time.Location)
		} else if l, err := timezone.LoadLocation(zone); err == nil {
			locations.Store(zone, l)
			loc = l
		}
	}
	lt := t.In(loc)
	return tripClock{Local: lt, Zone: loc.String(), Hour: hourOfWeek(lt)}
}

// nowOf returns the bundle's clock (its time-zone index's), else the
// system's.
func nowOf(b *bundle.Bundle) time.Time {
	if b != nil && b.TimeZones != nil {
		return b.TimeZones.Now()
	}
	return time.Now()
}

// speedVersionOf returns the speed version a metric key names ("" for
// none).
func speedVersionOf(key string) string {
	_, rest, ok := strings.Cut(key, ";bucket=")
	if !ok {
		return ""
	}
	v, _, _ := strings.Cut(rest, "@")
	return v
}

// timedOrder puts the speed bucket of the departure's local hour at the
// first origin into the order's metric key (on the car's graph: the one
// with speed data), with the turns conditional turn restrictions close at
// that hour. A bundle with neither leaves the metric as it is. The order
// records the departure, local to the first origin, and that zone, which
// fetch echoes.
func timedOrder(b *bundle.Bundle, o *queue.Order, departure time.Time) error {
	if len(o.OriginPoints) == 0 {
		return nil
	}
	clock := localClock(b, o.OriginPoints[0], departure)
	o.Departure, o.TimeZone = clock.Local.Format(time.RFC3339), clock.Zone
	g := b.GraphFor(o.Profile)
	if g == nil {
		return nil
	}
	spec, err := routing.ParseMetric(o.Routing)
	if err != nil {
		return err
	}
	spec, _ = g.AtHour(spec, clock.Hour)
	o.Routing = spec.String()
	return nil
}
