package main

import (
	"fmt"
	"os"
	"time"

	"github.com/geosvc/geosvc/geo/timezone"
	"github.com/geosvc/geosvc/routing"
	"github.com/geosvc/geosvc/routing/speeds"
)

// departureSpec readies the bench for --departure: the speed file the
// started server watches (--server-args "--speeds-watch FILE") applied
// to the bench's own graph, and spec at the departure's hour of the week
// local to the first origin, as the server computes it, so that the spot
// check compares with routing's table on the same bucket. Without
// --departure it returns spec as it is.
func (c benchConfig) departureSpec(g *routing.Graph, spec routing.Metric, firstOrigin string) (routing.Metric, string, error) {
	if c.departure == "" {
		return spec, "", nil
	}
	file := ""
	for i, a := range c.serverArgs {
		if a == "--speeds-watch" && i+1 < len(c.serverArgs) {
			file = c.serverArgs[i+1]
		}
	}
	if file != "" {
		b, err := os.ReadFile(file)
		if err != nil {
			return spec, "", err
		}
		d, err := speeds.Parse(file, b)
		if err != nil {
			return spec, "", fmt.Errorf("%s: %w", file, err)
		}
		g.SetSpeeds(g.MapSpeeds(d))
	}
	t := time.Now()
	if c.departure != "now" {
		var err error
		if t, err = time.Parse(time.RFC3339, c.departure); err != nil {
			return spec, "", fmt.Errorf("--departure %q: not an RFC 3339 time or now", c.departure)
		}
	}
	f, err := timezone.NewFinder()
	if err != nil {
		return spec, "", err
	}
	loc, err := timezone.LoadLocation(f.Zone(parseLonLat(firstOrigin)))
	if err != nil {
		loc = time.UTC
	}
	lt := t.In(loc)
	hour := (int(lt.Weekday())+6)%7*24 + lt.Hour()
	m, v := g.AtHour(spec, hour)
	title := fmt.Sprintf(", departure %s (hour of the week %d, %s)", lt.Format(time.RFC3339), hour, loc)
	if v != "" {
		title += ", speed data " + v
		if p := g.Speeds(); p != nil {
			title += fmt.Sprintf(" (%d buckets)", p.Report().Buckets)
		}
	}
	return m, title, nil
}
