package api

import (
	"math"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/geosvc/geosvc/geo"
	"github.com/geosvc/geosvc/routing"
)

// osrmTableAnswer is the body of a table answer: rows are sources,
// columns destinations, null where no route joins them.
type osrmTableAnswer struct {
	Code               string         `json:"code"`
	Durations          [][]*float64   `json:"durations,omitempty"`
	Distances          [][]*float64   `json:"distances,omitempty"`
	Sources            []osrmWaypoint `json:"sources,omitempty"`
	Destinations       []osrmWaypoint `json:"destinations,omitempty"`
	FallbackSpeedCells [][2]int       `json:"fallback_speed_cells,omitempty"`
}

// positiveOption reads a number > 0 (fallback_speed, scale_factor); 0
// when absent.
func (r *osrmRequest) positiveOption(key string) (float64, *osrmError) {
	if !r.q.Has(key) {
		return 0, nil
	}
	s := r.q.Get(key)
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || !isDecimal(s) {
		return 0, r.malformed(key, "%s is not a number", quoteEcho(s))
	}
	if v <= 0 || math.IsInf(v, 0) {
		return 0, osrmErr("InvalidOptions", "%s: %s must be more than 0", key, s)
	}
	return v, nil
}

// table answers the table service.
func (h *osrmHandler) table(c echo.Context, g *routing.Graph, r *osrmRequest) error {
	n := len(r.coords)
	if n < 2 {
		return osrmErr("InvalidOptions", "Number of coordinates needs to be at least two.")
	}
	src, oe := r.indexList("sources")
	if oe != nil {
		return oe
	}
	dst, oe := r.indexList("destinations")
	if oe != nil {
		return oe
	}
	all := identity(n)
	if src == nil {
		src = all
	}
	if dst == nil {
		dst = all
	}
	if lim := h.opts.Limits.MaxTableSize; len(src)*len(dst) > lim*lim {
		return osrmErr("TooBig", "Too many table coordinates: %d x %d is more than %d x %d cells; order larger matrices from tdmv1 (POST /tdmv1/order, docs/tdmv1.md)",
			len(src), len(dst), lim, lim)
	}
	wantDur, wantDist := true, false
	if r.q.Has("annotations") {
		wantDur, wantDist = false, false
		for _, a := range strings.Split(r.q.Get("annotations"), ",") {
			switch a {
			case "duration":
				wantDur = true
			case "distance":
				wantDist = true
			default:
				return r.malformed("annotations", "%s is not duration or distance", quoteEcho(a))
			}
		}
	}
	fallback, oe := r.positiveOption("fallback_speed")
	if oe != nil {
		return oe
	}
	scale, oe := r.positiveOption("scale_factor")
	if oe != nil {
		return oe
	}
	snapped := false
	switch v := r.q.Get("fallback_coordinate"); v {
	case "", "input":
	case "snapped":
		snapped = true
	default:
		return r.malformed("fallback_coordinate", "%s is not input or snapped", quoteEcho(v))
	}
	snaps, oe := h.snapAll(g, r)
	if oe != nil {
		return oe
	}
	pick := func(idx []int) []routing.Snap {
		out := make([]routing.Snap, len(idx))
		for i, k := range idx {
			out[i] = snaps[k]
		}
		return out
	}
	tab, err := g.Matrix(c.Request().Context(), r.spec, pick(src), pick(dst))
	if err != nil {
		return err
	}
	ans := osrmTableAnswer{Code: "Ok"}
	for i := range src {
		var durRow, distRow []*float64
		for j := range dst {
			d, m := tab.At(i, j)
			var dv, mv *float64
			if d != routing.NoRoute {
				dur, dist := float64(d), float64(m)
				if scale > 0 {
					dur = round1(dur * scale)
				}
				dv, mv = &dur, &dist
			} else if fallback > 0 {
				a, b := snaps[src[i]].Input, snaps[dst[j]].Input
				if snapped {
					a, b = snaps[src[i]].Point, snaps[dst[j]].Point
				}
				dist := round1(geo.HaversineM(a, b))
				dur := round1(dist / fallback)
				dv, mv = &dur, &dist
				ans.FallbackSpeedCells = append(ans.FallbackSpeedCells, [2]int{i, j})
			}
			durRow, distRow = append(durRow, dv), append(distRow, mv)
		}
		if wantDur {
			ans.Durations = append(ans.Durations, durRow)
		}
		if wantDist {
			ans.Distances = append(ans.Distances, distRow)
		}
	}
	if !r.skipWaypoints {
		for _, k := range src {
			ans.Sources = append(ans.Sources, r.waypointOf(g, snaps[k]))
		}
		for _, k := range dst {
			ans.Destinations = append(ans.Destinations, r.waypointOf(g, snaps[k]))
		}
	}
	return c.JSON(http.StatusOK, ans)
}

// osrmNearestAnswer is the body of a nearest answer.
type osrmNearestAnswer struct {
	Code      string         `json:"code"`
	Waypoints []osrmWaypoint `json:"waypoints"`
}

// nearest answers the nearest service: the number= nearest roads.
func (h *osrmHandler) nearest(c echo.Context, g *routing.Graph, r *osrmRequest) error {
	if len(r.coords) != 1 {
		return osrmErr("InvalidOptions", "Only one input coordinate is supported")
	}
	k := 1
	if r.q.Has("number") {
		v := r.q.Get("number")
		var err error
		if k, err = strconv.Atoi(v); err != nil || k < 1 || strings.HasPrefix(v, "+") {
			return r.malformed("number", "%s is not a whole number of at least 1", quoteEcho(v))
		}
	}
	if k > h.opts.Limits.MaxNearestSize {
		return osrmErr("TooBig", "Number of results %d is higher than current maximum (%d)", k, h.opts.Limits.MaxNearestSize)
	}
	snaps := g.SnapNearest(r.spec, r.coords[0], h.opts.SnapRadiusM, r.snap[0], k)
	if len(snaps) == 0 {
		return osrmErr("NoSegment", "Could not find a matching segment for coordinate 0")
	}
	ans := osrmNearestAnswer{Code: "Ok", Waypoints: []osrmWaypoint{}}
	for _, s := range snaps {
		w := r.waypointOf(g, s)
		if n, ok := g.SnapNodes(s); ok {
			w.Nodes = n[:]
		}
		ans.Waypoints = append(ans.Waypoints, w)
	}
	return c.JSON(http.StatusOK, ans)
}

// identity returns 0, 1, ..., n-1.
func identity(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}
