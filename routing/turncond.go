package routing

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/geosvc/geosvc/routing/osmroad"
	"github.com/geosvc/geosvc/routing/speeds"
)

// Conditional turn restrictions (restriction:conditional, osmroad's
// TurnCond): the turns they forbid stay in the graph (for via ways, the
// turn out of the last copy, the copies made as for a plain restriction)
// and carry when they are closed: minutes of the week in local time, and
// whether a query without a time sees them closed (a plain restriction
// its conditional value lifts at some times). A query with a departure
// time closes them in its hour's customized metric (Metric.Turns, set by
// Graph.AtHour: every hour with the same closed turns shares one metric);
// RouteAt checks each at the minute the car makes it. Without a time the
// graph answers as if only the NoTime ones existed: the hierarchies built
// at import leave those out, and the plain searches skip them. A graph
// without any has no turnConds: nothing changes or costs.

// condTable collects the distinct conditions of a build's turns, each
// the union of every conditional restriction forbidding the turn; id 0
// is none.
type condTable struct {
	conds []condSpec
	ids   map[string]uint16
}

// condSpec is one condition: the minutes it closes its turns at, sorted
// and merged, and whether a query without a time sees them closed.
type condSpec struct {
	Closed [][2]int `json:"closed"`
	NoTime bool     `json:"no_time,omitempty"`

	spans []speeds.WeekSpan
	hours [speeds.Hours]bool
}

// maxConds bounds the distinct conditions of a graph (their ids are
// uint16): a turn whose condition would be a new one beyond it keeps
// the one it has (the extra restriction is left out, as before
// conditional restrictions were read; an error would stop a build for
// little).
const maxConds = 1<<16 - 1

// key returns c's canonical key.
func condKey(spans []speeds.WeekSpan, noTime bool) string {
	var b strings.Builder
	if noTime {
		b.WriteByte('!')
	}
	for _, s := range spans {
		b.WriteString(strconv.Itoa(s.From))
		b.WriteByte('-')
		b.WriteString(strconv.Itoa(s.To))
		b.WriteByte(',')
	}
	return b.String()
}

// merge returns the id of the union of condition id (0: none) and cs.
func (t *condTable) merge(id uint16, cs ...*osmroad.TurnCond) uint16 {
	if len(cs) == 0 {
		return id
	}
	var spans []speeds.WeekSpan
	noTime := false
	if id > 0 {
		spans, noTime = slices.Clone(t.conds[id-1].spans), t.conds[id-1].NoTime
	}
	for _, c := range cs {
		spans = append(spans, c.Closed...)
		noTime = noTime || c.NoTime
	}
	spans = speeds.MergeSpans(spans)
	k := condKey(spans, noTime)
	if got, ok := t.ids[k]; ok {
		return got
	}
	if len(t.conds) == maxConds {
		return id
	}
	if t.ids == nil {
		t.ids = map[string]uint16{}
	}
	t.conds = append(t.conds, newCondSpec(spans, noTime))
	t.ids[k] = uint16(len(t.conds))
	return uint16(len(t.conds))
}

// newCondSpec returns the condition closing at spans.
func newCondSpec(spans []speeds.WeekSpan, noTime bool) condSpec {
	c := condSpec{NoTime: noTime, spans: spans, hours: speeds.HoursOf(spans)}
	for _, s := range spans {
		c.Closed = append(c.Closed, [2]int{s.From, s.To})
	}
	return c
}

// condIndex holds the conditional via-node restrictions of a build.
type condIndex struct {
	forbid map[uint32]map[turnKey][]*osmroad.TurnCond // via -> (from, to)
	only   map[uint32]map[uint32][]condOnly           // via -> from
}

// condOnly is a conditional only_* restriction: its to edges and when
// every other turn is closed.
type condOnly struct {
	tos  []uint32
	cond *osmroad.TurnCond
}

// add indexes a conditional via-node restriction.
func (ci *condIndex) add(r osmroad.Restriction) {
	if r.Only {
		if ci.only == nil {
			ci.only = map[uint32]map[uint32][]condOnly{}
		}
		m := ci.only[r.Via]
		if m == nil {
			m = map[uint32][]condOnly{}
			ci.only[r.Via] = m
		}
		// Records of one relation and kind share the condition.
		for i, o := range m[r.FromEdge] {
			if o.cond == r.Cond {
				m[r.FromEdge][i].tos = append(o.tos, r.ToEdge)
				return
			}
		}
		m[r.FromEdge] = append(m[r.FromEdge], condOnly{tos: []uint32{r.ToEdge}, cond: r.Cond})
		return
	}
	if ci.forbid == nil {
		ci.forbid = map[uint32]map[turnKey][]*osmroad.TurnCond{}
	}
	m := ci.forbid[r.Via]
	if m == nil {
		m = map[turnKey][]*osmroad.TurnCond{}
		ci.forbid[r.Via] = m
	}
	k := turnKey{r.FromEdge, r.ToEdge}
	m[k] = append(m[k], r.Cond)
}

// conds returns the conditions closing the turn from edge to edge at
// vertex via.
func (ci *condIndex) conds(via, from, to uint32) []*osmroad.TurnCond {
	if ci.forbid == nil && ci.only == nil {
		return nil
	}
	out := ci.forbid[via][turnKey{from, to}]
	for _, o := range ci.only[via][from] {
		if !slices.Contains(o.tos, to) {
			out = append(out, o.cond)
		}
	}
	return out
}

// turnConds are a graph's conditional turns (nil without any).
type turnConds struct {
	// Arcs are the turn indexes (ascending), Cond each one's condition
	// (an index of Conds).
	Arcs  []uint32   `json:"arcs"`
	Cond  []uint16   `json:"cond"`
	Conds []condSpec `json:"conds"`

	byArc map[uint32]uint16
	// noTime are the turns closed without a time, noTimeBit them as a
	// bitset over the turns (nil when none).
	noTime    []uint32
	noTimeBit []uint64
	// hourClass[h] indexes classArcs, the turns closed at hour h, -1
	// where they are noTime's; classRep[c] is class c's first hour.
	hourClass [speeds.Hours]int16
	classArcs [][]uint32
	classRep  []int
}

// init derives the indexes of the conditions read or built; it checks
// them against a graph of nTurns turns.
func (tc *turnConds) init(nTurns int) error {
	if len(tc.Arcs) != len(tc.Cond) {
		return fmt.Errorf("routing: turn.cond: %d arcs, %d conditions", len(tc.Arcs), len(tc.Cond))
	}
	for i := range tc.Conds {
		c := &tc.Conds[i]
		c.spans = c.spans[:0]
		for _, s := range c.Closed {
			if s[0] < 0 || s[1] > speeds.WeekMinutes || s[0] >= s[1] {
				return fmt.Errorf("routing: turn.cond: span %v", s)
			}
			c.spans = append(c.spans, speeds.WeekSpan{From: s[0], To: s[1]})
		}
		c.hours = speeds.HoursOf(c.spans)
	}
	tc.byArc = make(map[uint32]uint16, len(tc.Arcs))
	for i, a := range tc.Arcs {
		if int(a) >= nTurns || int(tc.Cond[i]) >= len(tc.Conds) {
			return fmt.Errorf("routing: turn.cond: arc %d condition %d out of range", a, tc.Cond[i])
		}
		tc.byArc[a] = tc.Cond[i]
		if tc.Conds[tc.Cond[i]].NoTime {
			tc.noTime = append(tc.noTime, a)
			if tc.noTimeBit == nil {
				tc.noTimeBit = make([]uint64, (nTurns+63)/64)
			}
			tc.noTimeBit[a/64] |= 1 << (a % 64)
		}
	}
	// Hours with the same closed conditions share a class.
	classes := map[string]int16{}
	for h := 0; h < speeds.Hours; h++ {
		var key []byte
		same := true
		for i, c := range tc.Conds {
			if c.hours[h] {
				key = strconv.AppendInt(key, int64(i), 10)
				key = append(key, ',')
			}
			same = same && c.hours[h] == c.NoTime
		}
		if same {
			tc.hourClass[h] = -1
			continue
		}
		c, ok := classes[string(key)]
		if !ok {
			c = int16(len(tc.classRep))
			classes[string(key)] = c
			tc.classRep = append(tc.classRep, h)
			var arcs []uint32
			for i, a := range tc.Arcs {
				if tc.Conds[tc.Cond[i]].hours[h] {
					arcs = append(arcs, a)
				}
			}
			tc.classArcs = append(tc.classArcs, arcs)
		}
		tc.hourClass[h] = c
	}
	return nil
}

// newTurnConds returns the conditions of a build's turns (arcs and their
// ids in t), nil without any.
func newTurnConds(arcs []uint32, ids []uint16, t *condTable, nTurns int) *turnConds {
	if len(arcs) == 0 {
		return nil
	}
	tc := &turnConds{Arcs: arcs, Cond: make([]uint16, len(ids)), Conds: t.conds}
	for i, id := range ids {
		tc.Cond[i] = id - 1
	}
	if err := tc.init(nTurns); err != nil {
		panic(err) // built from the table itself
	}
	return tc
}

// ConditionalTurns returns the number of turns a conditional turn
// restriction closes at some times (0 without any).
func (g *Graph) ConditionalTurns() int {
	if g.tc == nil {
		return 0
	}
	return len(g.tc.Arcs)
}

// turnsAt returns the Metric.Turns of hour of the week h: 0 where the
// closed turns are those of a query without a time.
func (g *Graph) turnsAt(h int) int16 {
	if g.tc == nil || h < 0 || h >= speeds.Hours || g.tc.hourClass[h] < 0 {
		return 0
	}
	return int16(g.tc.classRep[g.tc.hourClass[h]] + 1)
}

// turnsOpen is the Metric.Turns that closes no conditional turn: the
// time-dependent search's A* potential, a lower bound at any time, is
// computed on it (key ";turns=open").
const turnsOpen int16 = -1

// closedTurns returns the turns closed for Metric.Turns t.
func (g *Graph) closedTurns(t int16) []uint32 {
	if g.tc == nil || t == turnsOpen {
		return nil
	}
	if t <= 0 || int(t) > speeds.Hours || g.tc.hourClass[t-1] < 0 {
		return g.tc.noTime
	}
	return g.tc.classArcs[g.tc.hourClass[t-1]]
}

// shutNoTime reports whether turn i is closed for a query without a
// time.
func (g *Graph) shutNoTime(i uint32) bool {
	return g.tc != nil && g.tc.noTimeBit != nil && g.tc.noTimeBit[i/64]&(1<<(i%64)) != 0
}

// turnClosedAt reports whether turn i is closed at minute of the week m
// (local time).
func (g *Graph) turnClosedAt(i uint32, m int) (conditional, closed bool) {
	if g.tc == nil {
		return false, false
	}
	c, ok := g.tc.byArc[i]
	if !ok {
		return false, false
	}
	return true, speeds.InSpans(g.tc.Conds[c].spans, m)
}

// turnsKey returns the turns part of a metric key (Turns != 0).
func turnsKey(t int16) string {
	if t == turnsOpen {
		return "open"
	}
	return strconv.Itoa(int(t) - 1)
}

// parseTurnsKey reads the hour of a metric key's turns part ("open" for
// turnsOpen).
func parseTurnsKey(s string) (int16, error) {
	if s == "open" {
		return turnsOpen, nil
	}
	h, err := strconv.Atoi(s)
	if err != nil || h < 0 || h >= speeds.Hours {
		return 0, &SpecError{Field: "turns", Msg: fmt.Sprintf("%q is not an hour of the week (0..167)", s)}
	}
	return int16(h + 1), nil
}

// tdPotential returns the reverse one-to-all search to the destination
// whose times bound a time-dependent search's remaining time from
// below: the plain hierarchy's, or, where it leaves out turns closed
// without a time (which a time may open), that of a metric with every
// conditional turn open.
func (g *Graph) tdPotential(ctx context.Context, to Snap) (*Reached, error) {
	if g.tc == nil || len(g.tc.noTime) == 0 {
		return g.oneToAll(chFastest, to, true), nil
	}
	cm, err := g.customMetric(ctx, Metric{Turns: turnsOpen})
	if err != nil {
		return nil, err
	}
	return cm.oneToAll(to, true), nil
}
