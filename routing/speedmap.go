package routing

import (
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/geo"
	"github.com/geosvc/geosvc/routing/speeds"
)

// SpeedProfile is speed data (package speeds) mapped onto a graph: per
// hour of the week, the travel time of every directed road edge the data
// changes at that hour. Hours with the same changes share one bucket,
// and one customized metric. It is read-only and safe for concurrent use.
type SpeedProfile struct {
	version  string
	loadedAt time.Time
	// hourClass[h] indexes classes, -1 where nothing changes at hour h;
	// rep[c] is class c's first hour (the bucket a metric key names).
	hourClass [speeds.Hours]int16
	rep       []int
	classes   [][]edgeTime
	report    SpeedReport
	// minRatio is, once computed (tdroute.go), the least ratio of a
	// bucket's time of a road to its plain time.
	minRatioOnce sync.Once
	minRatio     float64
}

// edgeTime is a directed edge's travel time in one bucket.
type edgeTime struct {
	d  uint32 // directed id 2e+dir
	ms uint32
}

// SpeedReport says how speed data mapped onto a graph.
type SpeedReport struct {
	// Version is the data's version (speeds.Data.Version); Format "csv"
	// or "yaml".
	Version string `json:"version"`
	Format  string `json:"format"`
	// Segments counts the CSV rows; Matched those whose node pair is a
	// road segment a car drives in that direction; Unknown those whose
	// pair is no consecutive pair of nodes of any road of the graph;
	// NotDrivable those naming a road segment in a direction a car may
	// not drive. Examples lists the first unknown rows ("line 7: 12->13").
	Segments    int      `json:"segments"`
	Matched     int      `json:"matched"`
	Unknown     int      `json:"unknown"`
	NotDrivable int      `json:"not_drivable"`
	Examples    []string `json:"unknown_examples,omitempty"`
	// Rules counts the YAML rules; RuleSegments the directed road
	// segments they match together (a segment matched by two rules
	// counted twice); EmptyRules lists the rules matching none.
	Rules        int      `json:"rules"`
	RuleSegments int      `json:"rule_segments"`
	EmptyRules   []string `json:"empty_rules,omitempty"`
	// CondMaxspeeds counts the rows of conditional maximum speeds from
	// the OSM data (maxspeed:conditional, one per segment, direction and
	// hour), matched and counted with Segments' rows.
	CondMaxspeeds int `json:"conditional_maxspeeds,omitempty"`
	// Edges counts the directed road edges whose time changes at some
	// hour; Buckets the distinct hour buckets (hours with the same
	// changes share one), HoursChanged the hours of the week with any.
	Edges        int `json:"edges"`
	Buckets      int `json:"buckets"`
	HoursChanged int `json:"hours_changed"`
	// MapTime is how long mapping took.
	MapTime time.Duration `json:"map_time_ns"`
}

// String formats the report for people.
func (r SpeedReport) String() string {
	s := fmt.Sprintf("speeds %s (%s): ", r.Version, r.Format)
	if r.Format == "yaml" {
		s += fmt.Sprintf("%d rules matching %d road segments", r.Rules, r.RuleSegments)
		if len(r.EmptyRules) > 0 {
			s += fmt.Sprintf(" (matching none: %v)", r.EmptyRules)
		}
	} else {
		s += fmt.Sprintf("%d rows, %d matched, %d unknown, %d not drivable that way", r.Segments, r.Matched, r.Unknown, r.NotDrivable)
		if len(r.Examples) > 0 {
			s += fmt.Sprintf(" (unknown: %v)", r.Examples)
		}
	}
	if r.CondMaxspeeds > 0 {
		s += fmt.Sprintf("; %d conditional maxspeed rows (caps, among the matched)", r.CondMaxspeeds)
	}
	return s + fmt.Sprintf("; %d road edges changed in %d hour buckets covering %d hours of the week, mapped in %v", r.Edges, r.Buckets, r.HoursChanged, r.MapTime.Round(time.Microsecond))
}

// Version returns the profile's version ("" for a nil profile).
func (p *SpeedProfile) Version() string {
	if p == nil {
		return ""
	}
	return p.version
}

// LoadedAt returns when the profile was mapped.
func (p *SpeedProfile) LoadedAt() time.Time { return p.loadedAt }

// Report returns how the data mapped.
func (p *SpeedProfile) Report() SpeedReport { return p.report }

// Bucket returns the bucket of hour of the week h (0..167): its first
// hour, and false when nothing changes at h.
func (p *SpeedProfile) Bucket(h int) (int, bool) {
	if p == nil || h < 0 || h >= speeds.Hours || p.hourClass[h] < 0 {
		return 0, false
	}
	return p.rep[p.hourClass[h]], true
}

// maxExamples is the number of unknown rows a report names.
const maxExamples = 5

// segRef is a directed road segment: directed edge d, segment k of the
// edge's shape (counted along the shape whatever the direction).
type segRef struct {
	d, k uint32
}

// MapSpeeds maps speed data onto the graph. Rows naming no road segment
// of the graph, or a direction a car may not drive, are counted in the
// report, not errors; nothing fails.
func (g *Graph) MapSpeeds(d *speeds.Data) *SpeedProfile {
	t0 := time.Now()
	p := &SpeedProfile{version: d.Version, loadedAt: t0}
	rep := &p.report
	rep.Version, rep.Format = d.Version, d.Format
	rep.Segments, rep.Rules = len(d.Segments), len(d.Rules)

	// The conditional maximum speeds (caps) follow the rows.
	rows, nRows := d.Segments, len(d.Segments)
	if len(d.Caps) > 0 {
		rows = append(rows[:nRows:nRows], d.Caps...)
	}
	rep.CondMaxspeeds = len(d.Caps)
	rowSeg := g.matchSegments(rows, rep)
	ruleSegs := make([][]segRef, len(d.Rules))
	matched := map[string][]segRef{} // rules matching the same roads share a list
	for i := range d.Rules {
		key := strings.Join(d.Rules[i].Classes, ",") + "|" + d.Rules[i].Area.Key()
		segs, ok := matched[key]
		if !ok {
			segs = g.matchRule(&d.Rules[i])
			matched[key] = segs
		}
		ruleSegs[i] = segs
		rep.RuleSegments += len(ruleSegs[i])
		if len(ruleSegs[i]) == 0 {
			name := d.Rules[i].Name
			if name == "" {
				name = fmt.Sprintf("rules[%d]", i)
			}
			rep.EmptyRules = append(rep.EmptyRules, name)
		}
	}

	// Rows for every hour, then each hour's signature: its own rows and
	// its active rules.
	var always []int32
	byHour := make([][]int32, speeds.Hours)
	for i, s := range rows {
		if len(rowSeg[i]) == 0 {
			continue
		}
		if s.Hour == speeds.AllHours {
			always = append(always, int32(i))
		} else {
			byHour[s.Hour] = append(byHour[s.Hour], int32(i))
		}
	}
	sigClass := map[string]int16{}
	changed := map[uint32]bool{}
	for h := 0; h < speeds.Hours; h++ {
		var rules []int32
		for i := range d.Rules {
			if d.Rules[i].Hours[h] && len(ruleSegs[i]) > 0 {
				rules = append(rules, int32(i))
			}
		}
		if len(always) == 0 && len(byHour[h]) == 0 && len(rules) == 0 {
			p.hourClass[h] = -1
			continue
		}
		sig := signature(byHour[h], rules)
		c, ok := sigClass[sig]
		if !ok {
			times := g.bucketTimes(d, rows, nRows, rowSeg, ruleSegs, always, byHour[h], rules)
			c = int16(len(p.classes))
			if len(times) == 0 {
				c = -1
			} else {
				p.classes = append(p.classes, times)
				p.rep = append(p.rep, h)
				for _, et := range times {
					changed[et.d] = true
				}
			}
			sigClass[sig] = c
		}
		p.hourClass[h] = c
		if c >= 0 {
			rep.HoursChanged++
		}
	}
	rep.Edges, rep.Buckets = len(changed), len(p.classes)
	rep.MapTime = time.Since(t0)
	return p
}

// signature encodes an hour's own rows and active rules.
func signature(rows, rules []int32) string {
	b := make([]byte, 0, 4*(len(rows)+len(rules))+4)
	for _, r := range rows {
		b = binary.LittleEndian.AppendUint32(b, uint32(r))
	}
	b = binary.LittleEndian.AppendUint32(b, math.MaxUint32)
	for _, r := range rules {
		b = binary.LittleEndian.AppendUint32(b, uint32(r))
	}
	return string(b)
}

// matchSegments returns, per CSV row, the drivable directed segments its
// node pair names, counting the rows in rep.
func (g *Graph) matchSegments(rows []speeds.Segment, rep *SpeedReport) [][]segRef {
	out := make([][]segRef, len(rows))
	if len(rows) == 0 {
		return out
	}
	type pair struct{ a, b int64 }
	want := make(map[pair][]int32, len(rows))
	for i, s := range rows {
		want[pair{s.From, s.To}] = append(want[pair{s.From, s.To}], int32(i))
	}
	notDrivable := make([]bool, len(rows))
	if len(g.shapeNode) == len(g.shape) {
		for e := range g.edgeFrom {
			lo, hi := g.shapeFirst[e], g.shapeFirst[e+1]
			for k := lo; k+1 < hi; k++ {
				x, y := g.shapeNode[k], g.shapeNode[k+1]
				for dir, pr := range [2]pair{{x, y}, {y, x}} {
					for _, r := range want[pr] {
						d := directedID(uint32(e), uint32(dir))
						if g.edgeNode[d] < 0 {
							notDrivable[r] = true
							continue
						}
						out[r] = append(out[r], segRef{d: d, k: k - lo})
					}
				}
			}
		}
	}
	for i, s := range rows {
		switch {
		case len(out[i]) > 0:
			rep.Matched++
		case notDrivable[i]:
			rep.NotDrivable++
		default:
			rep.Unknown++
			if len(rep.Examples) < maxExamples {
				rep.Examples = append(rep.Examples, fmt.Sprintf("line %d: %d->%d", s.Line, s.From, s.To))
			}
		}
	}
	return out
}

// matchRule returns the drivable directed segments a rule matches: of
// its classes (any without), with the midpoint inside its area (any
// without).
func (g *Graph) matchRule(r *speeds.Rule) []segRef {
	classOK := make([]bool, len(g.classes))
	for i, c := range g.classes {
		classOK[i] = len(r.Classes) == 0 || slices.Contains(r.Classes, c)
	}
	shapes := r.Area.Shapes()
	var out []segRef
	for e := range g.edgeFrom {
		if !classOK[g.edgeClass[e]] {
			continue
		}
		lo, hi := g.shapeFirst[e], g.shapeFirst[e+1]
		for k := lo; k+1 < hi; k++ {
			if len(shapes) > 0 {
				a, b := g.shape[k], g.shape[k+1]
				mid := orb.Point{(a[0] + b[0]) / 2, (a[1] + b[1]) / 2}
				in := false
				for _, sh := range shapes {
					if sh.Bound().Contains(mid) && sh.Contains(mid) {
						in = true
						break
					}
				}
				if !in {
					continue
				}
			}
			for dir := uint32(0); dir < 2; dir++ {
				if d := directedID(uint32(e), dir); g.edgeNode[d] >= 0 {
					out = append(out, segRef{d: d, k: k - lo})
				}
			}
		}
	}
	return out
}

// bucketTimes returns the travel time of every directed edge changed in
// one bucket, sorted by directed id: each segment's time is the graph's
// (the edge's time shared by length), replaced by a row's speed (the
// hour's own row over an every-hour row), then changed by each active
// rule in order (a speed replaces it, a factor divides it).
func (g *Graph) bucketTimes(d *speeds.Data, rows []speeds.Segment, nRows int, rowSeg [][]segRef, ruleSegs [][]segRef, always, own, rules []int32) []edgeTime {
	// slab holds the segment times of every touched directed edge.
	at := map[uint32]int{}
	var slab []float64
	times := func(dID uint32) []float64 {
		e := dID / 2
		n := int(g.shapeFirst[e+1]-g.shapeFirst[e]) - 1
		if i, ok := at[dID]; ok {
			return slab[i : i+n]
		}
		i := len(slab)
		at[dID] = i
		total := float64(g.base.nodeTime[g.edgeNode[dID]])
		for k := 0; k < n; k++ {
			share := 1 / float64(n)
			if g.edgeLen[e] > 0 {
				share = g.segLen(e, uint32(k)) / g.edgeLen[e]
			}
			slab = append(slab, total*share)
		}
		return slab[i : i+n]
	}
	setKmh := func(s segRef, kmh float64) {
		times(s.d)[s.k] = g.segLen(s.d/2, s.k) / (kmh / 3.6) * 1000
	}
	for _, set := range [][]int32{always, own} {
		for _, r := range set {
			if int(r) >= nRows {
				continue // a cap: below
			}
			for _, s := range rowSeg[r] {
				setKmh(s, rows[r].Kmh)
			}
		}
	}
	for _, ri := range rules {
		rule := &d.Rules[ri]
		for _, s := range ruleSegs[ri] {
			if rule.Kmh > 0 {
				setKmh(s, rule.Kmh)
			} else {
				times(s.d)[s.k] /= rule.Factor
			}
		}
	}
	// Conditional maximum speeds last: no faster than the cap.
	for _, set := range [][]int32{always, own} {
		for _, r := range set {
			if int(r) < nRows {
				continue
			}
			for _, s := range rowSeg[r] {
				t := times(s.d)
				t[s.k] = max(t[s.k], g.segLen(s.d/2, s.k)/(rows[r].Kmh/3.6)*1000)
			}
		}
	}
	out := make([]edgeTime, 0, len(at))
	for dID, i := range at {
		e := dID / 2
		n := int(g.shapeFirst[e+1]-g.shapeFirst[e]) - 1
		sum := 0.0
		for _, t := range slab[i : i+n] {
			sum += t
		}
		ms := uint32(max(1, min(math.Round(sum), math.MaxUint32/4)))
		if ms != g.base.nodeTime[g.edgeNode[dID]] {
			out = append(out, edgeTime{d: dID, ms: ms})
		}
	}
	slices.SortFunc(out, func(a, b edgeTime) int { return int(a.d) - int(b.d) })
	return out
}

// segLen is the length in metres of segment k of edge e's shape.
func (g *Graph) segLen(e, k uint32) float64 {
	i := g.shapeFirst[e] + k
	return geo.HaversineM(g.shape[i], g.shape[i+1])
}
