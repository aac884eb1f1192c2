package api

import (
	"errors"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/geosvc/geosvc/routing"
)

// osrmTripAnswer is the body of a trip answer.
type osrmTripAnswer struct {
	Code      string          `json:"code"`
	Trips     []osrmRouteJSON `json:"trips"`
	Waypoints []osrmWaypoint  `json:"waypoints,omitempty"`
}

// trip answers the trip service: the stops in the best order
// (routing.Graph.BestTour), then the route through them.
func (h *osrmHandler) trip(c echo.Context, g *routing.Graph, r *osrmRequest) error {
	n := len(r.coords)
	if n < 2 {
		return osrmErr("InvalidOptions", "Number of coordinates needs to be at least two.")
	}
	if n > h.opts.Limits.MaxTripSize {
		return osrmErr("TooBig", "Too many trip coordinates: %d is more than %d", n, h.opts.Limits.MaxTripSize)
	}
	o, oe := r.parseRouteOptions()
	if oe != nil {
		return oe
	}
	round, oe := r.boolOption("roundtrip", true)
	if oe != nil {
		return oe
	}
	ends := 0
	if round {
		ends |= routing.TourRound
	}
	switch v := r.q.Get("source"); v {
	case "", "any":
	case "first":
		ends |= routing.TourFirst
	default:
		return r.malformed("source", "%s is not any or first", quoteEcho(v))
	}
	switch v := r.q.Get("destination"); v {
	case "", "any":
	case "last":
		ends |= routing.TourLast
	default:
		return r.malformed("destination", "%s is not any or last", quoteEcho(v))
	}
	if !round && ends&(routing.TourFirst|routing.TourLast) == 0 {
		return osrmErr("NotImplemented", "This request is not supported: roundtrip=false needs source=first or destination=last")
	}
	snaps, oe := h.snapAll(g, r)
	if oe != nil {
		return oe
	}
	ctx := c.Request().Context()
	order, err := g.BestTour(ctx, r.spec, snaps, ends)
	if err != nil {
		return err
	}
	stops := make([]routing.Snap, 0, n+1)
	for _, k := range order {
		stops = append(stops, snaps[k])
	}
	if round {
		stops = append(stops, snaps[order[0]])
	}
	parts, err := routeLegs(ctx, g, r.spec, stops)
	var noRoute *osrmError
	if errors.As(err, &noRoute) {
		return osrmErr("NoTrips", "No trip visiting all destinations possible.")
	}
	if err != nil {
		return err
	}
	for _, st := range stops {
		o.ends = append(o.ends, st.Input)
	}
	ans := osrmTripAnswer{Code: "Ok", Trips: []osrmRouteJSON{r.routeJSON(g, groupLegs(parts, nil), o)}}
	if !r.skipWaypoints {
		place := make([]int, n)
		for i, k := range order {
			place[k] = i
		}
		for k, s := range snaps {
			w := r.waypointOf(g, s)
			w.TripsIndex, w.WaypointIndex = new(int), &place[k]
			ans.Waypoints = append(ans.Waypoints, w)
		}
	}
	setContentLanguage(c, r.answerLang())
	return c.JSON(http.StatusOK, ans)
}
