package routing

// Time-dependent routes: each road's time is that of the time it is
// driven. The speed data gives a road a travel time per hour of the week
// (piecewise constant); a car entering a road drives it at the speed of
// the hour it is in and, when the hour changes on the way, at the next
// hour's speed for the rest (the flow-speed model of Sung, Bell, Seong,
// Park, "Shortest paths in a network with time-dependent flow speed",
// EJOR 2000). A road's arrival time is then continuous and increasing in
// its entry time (FIFO: entering later never arrives earlier), so a
// Dijkstra on arrival times (Dreyfus 1969) is exact. The search runs on
// the uncontracted edge-based graph: the hierarchies hold one metric's
// weights, not functions of time.

import (
	"container/heap"
	"context"
	"errors"
	"math"
	"time"

	"github.com/geosvc/geosvc/routing/cch"
	"github.com/geosvc/geosvc/routing/ch"
)

// ErrNotTimeDependent is RouteAt's answer for a metric whose weights are
// not travel times (shortest, efficient, safest) or a truck's (whose
// weights add penalties to the times): time-bucketed routing applies.
var ErrNotTimeDependent = errors.New("routing: the metric is not routed time-dependently")

// tdHorizon is how many hours from the departure the clock of a
// time-dependent search reads; a trip still driving after it keeps the
// last hour's times.
const tdHorizon = 8 * 24

// TimeDependent reports whether RouteAt routes m time-dependently: m's
// weight is the travel time (objective fastest, a car).
func TimeDependent(m Metric) bool {
	return m.Objective == ObjectiveFastest && m.Profile == ProfileCar
}

// RouteAt computes the route for m leaving from at departure, read in
// departure's location (the local clock of the origin): each road is
// driven at the speed of the time it is driven, from the graph's current
// speed profile, and a turn a conditional turn restriction forbids at
// the local minute the car makes it is not taken (turncond.go). It
// returns the route and the profile's version ("" with none; then, on a
// graph without conditional turns either, the route is Route's). m's own
// Bucket and Turns are ignored. Errors as Route's, and
// ErrNotTimeDependent when TimeDependent(m) is false.
func (g *Graph) RouteAt(ctx context.Context, m Metric, from, to Snap, departure time.Time) (*Route, string, error) {
	if !TimeDependent(m) {
		return nil, "", ErrNotTimeDependent
	}
	if !from.OK || !to.OK {
		return nil, "", ErrNotSnapped
	}
	m.Bucket, m.Turns = SpeedBucket{}, 0
	p := g.Speeds()
	if p == nil && g.tc == nil {
		r, err := g.Route(ctx, m, from, to)
		return r, "", err
	}
	s := &tdSearch{g: g, ctx: ctx, spec: m, prof: p, clock: newTDClock(departure, tdHorizon)}
	if !m.hasSpeeds() {
		// Request speeds may be faster than the plain ones: no potential.
		pot, err := g.tdPotential(ctx, to)
		if err != nil {
			return nil, "", err
		}
		s.toTarget, s.alpha = pot, g.minTimeRatio(p)
	}
	path, exits, best, err := s.run(from, to)
	if err != nil {
		return nil, "", err
	}
	r := g.routeOf(path, from, to, int((best+500)/1000), 0, g.base.nodeTime)
	version := ""
	if p != nil {
		version = p.version
	}
	prev, dist := int64(0), 0.0
	for i := range r.Segments {
		r.Segments[i].DurationS = float64(exits[i]-prev) / 1000
		prev = exits[i]
		dist += r.Segments[i].DistanceM
	}
	r.DistanceM = int(math.Round(dist))
	return r, version, nil
}

// tdClock maps milliseconds after a departure to hours of the week on
// the local clock: interval k starts at start[k] and is hour hour[k];
// the last interval never ends. Daylight saving time follows the
// location's rules (an hour the clock skips is not an interval; one it
// repeats is two).
type tdClock struct {
	start []int64
	hour  []int
	// off0 is how far into its hour the departure is (ms).
	off0 int64
}

// newTDClock reads n local hours from t.
func newTDClock(t time.Time, n int) tdClock {
	var c tdClock
	at := t
	c.off0 = (time.Duration(t.Minute())*time.Minute + time.Duration(t.Second())*time.Second + time.Duration(t.Nanosecond())).Milliseconds()
	for k := 0; k < n; k++ {
		c.start = append(c.start, at.Sub(t).Milliseconds())
		c.hour = append(c.hour, hourOfWeek(at))
		// The local hour ends when its minutes reach 60 (offsets change
		// on whole local hours).
		into := time.Duration(at.Minute())*time.Minute + time.Duration(at.Second())*time.Second + time.Duration(at.Nanosecond())
		at = at.Add(time.Hour - into)
	}
	return c
}

// hourOfWeek returns t's hour of the week in its location (0 = Monday
// 00:00-00:59).
func hourOfWeek(t time.Time) int {
	return (int(t.Weekday())+6)%7*24 + t.Hour()
}

// minuteOfWeek returns the local minute of the week (0 = Monday 00:00)
// at ms after the departure.
func (c *tdClock) minuteOfWeek(ms int64) int {
	k := c.interval(ms, 0)
	into := ms - c.start[k]
	if k == 0 {
		into += c.off0
	}
	return (c.hour[k]*60 + int(into/60000)) % (7 * 24 * 60)
}

// interval returns the interval holding ms, searching on from k.
func (c *tdClock) interval(ms int64, k int) int {
	for k+1 < len(c.start) && c.start[k+1] <= ms {
		k++
	}
	return k
}

// tdLayer is m's times in one speed bucket: the nodes' times and the
// arcs usable (nil cm: the plain metric, every arc and node).
type tdLayer struct {
	nodeMS []uint32
	cm     *customMetric
}

// tdSearch is one time-dependent search.
type tdSearch struct {
	g      *Graph
	ctx    context.Context
	spec   Metric
	prof   *SpeedProfile
	clock  tdClock
	byHour map[int16]*tdLayer // by the bucket's first hour, -1 for none
	ofInt  []*tdLayer         // by clock interval, filled on use
	// toTarget, when set, gives the search its A* potential: the plain
	// fastest time from each node to the destination (a reverse
	// one-to-all search), scaled by alpha, the least ratio of any
	// bucket's time of a road to its plain time (at most 1), so that it
	// is a lower bound at any time of day.
	toTarget *Reached
	alpha    float64
}

// potential is a lower bound of the time from the end of node v to the
// destination (ms), false where v cannot reach it.
func (s *tdSearch) potential(v uint32) (int64, bool) {
	if s.toTarget == nil {
		return 0, true
	}
	w := s.toTarget.lab[v]
	if w == ch.Inf {
		return 0, false
	}
	// lab is the time from the start of v; the node's own time is the
	// plain one, which alpha bounds as well.
	ms, _ := unweight(chFastest, w)
	return int64(s.alpha * float64(max(0, ms-int64(s.g.base.nodeTime[v])))), true
}

// minTimeRatio returns the least ratio of a bucket's time of a road to
// its plain time over p's buckets, at most 1 (computed once per profile;
// 1 without one).
func (g *Graph) minTimeRatio(p *SpeedProfile) float64 {
	if p == nil {
		return 1
	}
	p.minRatioOnce.Do(func() {
		p.minRatio = 1
		for _, cls := range p.classes {
			for _, et := range cls {
				n := g.edgeNode[et.d]
				if n < 0 || g.base.nodeTime[n] == 0 {
					continue
				}
				p.minRatio = min(p.minRatio, float64(et.ms)/float64(g.base.nodeTime[n]))
			}
		}
	})
	return p.minRatio
}

// layer returns the times of clock interval k.
func (s *tdSearch) layer(k int) (*tdLayer, error) {
	if s.ofInt == nil {
		s.ofInt = make([]*tdLayer, len(s.clock.start))
		s.byHour = map[int16]*tdLayer{}
	}
	if l := s.ofInt[k]; l != nil {
		return l, nil
	}
	var b SpeedBucket
	if s.prof != nil {
		b = SpeedBucket{Version: s.prof.version, Hour: -1}
		if rep, ok := s.prof.Bucket(s.clock.hour[k]); ok {
			b.Hour = int16(rep)
		}
	}
	l := s.byHour[b.Hour]
	if l == nil {
		mm := s.spec
		mm.Bucket = b
		l = &tdLayer{nodeMS: s.g.base.nodeTime}
		if _, plain := mm.hierarchy(); !plain {
			cm, err := s.g.customMetric(s.ctx, mm)
			if err != nil {
				return nil, err
			}
			l = &tdLayer{nodeMS: cm.nodeMS, cm: cm}
		}
		s.byHour[b.Hour] = l
	}
	s.ofInt[k] = l
	return l, nil
}

// drive returns the time (ms after the departure) at which the car
// that starts driving node v at ms has covered the fraction q of it, and
// false where v cannot be driven. It fails only when ctx ends while a
// bucket's metric is customized.
func (s *tdSearch) drive(v uint32, ms int64, q float64) (int64, bool, error) {
	cur, rem := float64(ms), q
	for k := s.clock.interval(ms, 0); ; k++ {
		l, err := s.layer(k)
		if err != nil {
			return 0, false, err
		}
		if l.cm != nil && !l.cm.usable[v] {
			return 0, false, nil
		}
		t := float64(l.nodeMS[v])
		if t == 0 || rem <= 0 {
			return int64(math.Round(cur)), true, nil
		}
		if k+1 == len(s.clock.start) || cur+rem*t <= float64(s.clock.start[k+1]) {
			return int64(math.Round(cur + rem*t)), true, nil
		}
		end := float64(s.clock.start[k+1])
		rem -= (end - cur) / t
		cur = end
	}
}

// arcOK reports whether turn arc i (into head) is usable at ms: a turn
// a conditional restriction forbids at the local minute the car makes
// it is not (the layers' metrics are those of a query without a time;
// their closing of such a turn does not count).
func (s *tdSearch) arcOK(i uint32, ms int64) (bool, error) {
	l, err := s.layer(s.clock.interval(ms, 0))
	if err != nil {
		return false, err
	}
	if cond, closed := s.g.turnClosedAt(i, s.clock.minuteOfWeek(ms)); cond {
		return !closed && (l.cm == nil || l.cm.usable[s.g.base.turnHead[i]]), nil
	}
	if l.cm == nil {
		return true, nil
	}
	return l.cm.weights[i] != cch.Inf, nil
}

// tdState is a search's labels, kept between searches (Graph.tdPool).
type tdState struct {
	arr     []int64  // arrival at the end of the node, ms
	parent  []uint32 // the node before, noParent at a source
	touched []uint32
	h       oracleHeap
}

const noParent = ^uint32(0)

// tdState returns a search's labels from the graph's pool and the
// function that gives them back.
func (g *Graph) tdState() (*tdState, func()) {
	pool := &g.tdPool
	st, _ := pool.Get().(*tdState)
	if st == nil {
		n := len(g.base.nodeEdge)
		st = &tdState{arr: make([]int64, n), parent: make([]uint32, n)}
		for i := range st.arr {
			st.arr[i] = math.MaxInt64
		}
	}
	return st, func() {
		for _, v := range st.touched {
			st.arr[v] = math.MaxInt64
		}
		st.touched, st.h = st.touched[:0], st.h[:0]
		pool.Put(st)
	}
}

// run searches from one snapped point to another: the path's nodes,
// each one's exit time (the last's the arrival at the point) and the
// arrival (ms after the departure).
func (s *tdSearch) run(from, to Snap) ([]uint32, []int64, int64, error) {
	g, b := s.g, &s.g.base
	st, done := g.tdState()
	defer done()
	var ph, th [2]phantom
	src := g.phantoms(chFastest, from, ph[:0])
	dst := g.withCopies(g.phantoms(chFastest, to, th[:0]))
	best, bestPrev, bestNode := int64(math.MaxInt64), noParent, noParent
	set := func(v uint32, at int64, prev uint32) {
		pi, ok := s.potential(v)
		if !ok {
			return
		}
		if st.arr[v] == math.MaxInt64 {
			st.touched = append(st.touched, v)
		}
		st.arr[v], st.parent[v] = at, prev
		heap.Push(&st.h, oracleItem{v, at + pi})
	}
	for _, p := range src {
		at, ok, err := s.drive(p.node, 0, 1-p.frac)
		if err != nil {
			return nil, nil, 0, err
		}
		if ok && at < st.arr[p.node] {
			set(p.node, at, noParent)
		}
		// The destination further along the same road.
		for _, t := range dst {
			if t.node == p.node && t.frac >= p.frac {
				if at, ok, err := s.drive(p.node, 0, t.frac-p.frac); err != nil {
					return nil, nil, 0, err
				} else if ok && at < best {
					best, bestPrev, bestNode = at, noParent, t.node
				}
			}
		}
	}
	for settled := 0; st.h.Len() > 0; settled++ {
		it := heap.Pop(&st.h).(oracleItem)
		pi, _ := s.potential(it.node)
		if it.d-pi > st.arr[it.node] {
			continue
		}
		if it.d >= best {
			break // the key is a lower bound of any arrival through it
		}
		it.d -= pi
		if settled&1023 == 1023 && s.ctx.Err() != nil {
			return nil, nil, 0, s.ctx.Err()
		}
		u := it.node
		for i := b.turnFirst[u]; i < b.turnFirst[u+1]; i++ {
			v := b.turnHead[i]
			ok, err := s.arcOK(i, it.d)
			if err != nil {
				return nil, nil, 0, err
			}
			if !ok {
				continue
			}
			enter := it.d + int64(b.turnMS[i])
			for _, t := range dst {
				if t.node != v {
					continue
				}
				if at, ok, err := s.drive(v, enter, t.frac); err != nil {
					return nil, nil, 0, err
				} else if ok && at < best {
					best, bestPrev, bestNode = at, u, v
				}
			}
			at, ok, err := s.drive(v, enter, 1)
			if err != nil {
				return nil, nil, 0, err
			}
			if ok && at < st.arr[v] {
				set(v, at, u)
			}
		}
	}
	if best == math.MaxInt64 {
		return nil, nil, 0, ErrNoRoute
	}
	path, exits := []uint32{bestNode}, []int64{best}
	for v := bestPrev; v != noParent; v = st.parent[v] {
		path, exits = append(path, v), append(exits, st.arr[v])
	}
	for i, j := 0, len(path)-1; i < j; i, j = i+1, j-1 {
		path[i], path[j] = path[j], path[i]
		exits[i], exits[j] = exits[j], exits[i]
	}
	return path, exits, best, nil
}
