package osmroad

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/paulmach/osm"

	"github.com/geosvc/geosvc/routing/profile"
)

// relRec is a restriction relation for the profile's vehicle whose
// members looked usable in pass 1: its from and to ways, and either one
// via node (viaWays empty) or its via ways in order.
type relRec struct {
	from, to []int64
	viaNode  int64
	viaWays  []int64
	// kinds are the restrictions the relation makes: its plain value
	// alone (cond nil), or with a conditional value each kind in force
	// at its times (conditional.go).
	kinds []relKind
}

// relKind is one restriction value of a relation and when it is in
// force (nil: always).
type relKind struct {
	kind string
	only bool
	cond *TurnCond
}

// Reasons a restriction relation is skipped, as the report counts them.
const (
	skipUnknownKind   = "unknown restriction kind"
	skipNoFromTo      = "broken relation: no from or no to way member"
	skipNoVia         = "broken relation: no via member"
	skipSeveralVia    = "several via nodes"
	skipViaMixed      = "both a via node and via ways"
	skipFromToNotCar  = "from or to way is not a car way (or not in the extract)"
	skipViaNotCar     = "via node is not on a car way"
	skipViaNotOnBoth  = "via node is not on the from and the to way"
	skipViaWayNotCar  = "via way is not a car way (or not in the extract)"
	skipViaWayCut     = "via way is cut by the extract"
	skipViaWayClosed  = "via way is a closed loop"
	skipNotConnected  = "via ways do not connect the from and to ways end to end"
	skipViaWayOneway  = "via way is one-way against the restriction (no effect)"
	skipFromNotDriven = "from way cannot be driven into the via way (no effect)"
)

// relation records a restriction relation, or counts why it is skipped.
func (b *builder) relation(r *osm.Relation) {
	b.rep.RestrictionsRead++
	kind, only, status := b.prof.Restriction(r.Tags)
	switch status {
	case profile.RestrictionNotCar:
		b.rep.RestrictionsNotCar++
		return
	case profile.RestrictionInvalid:
		b.skip(skipUnknownKind)
		return
	}
	kinds := b.conditionalKinds(kind, only, status == profile.RestrictionCar, b.prof.ConditionalRestriction(r.Tags))
	if len(kinds) == 0 {
		b.rep.RestrictionsConditional++
		return
	}
	rec := relRec{kinds: kinds}
	viaNodes := 0
	for _, m := range r.Members {
		switch {
		case m.Role == "from" && m.Type == osm.TypeWay:
			rec.from = append(rec.from, m.Ref)
		case m.Role == "to" && m.Type == osm.TypeWay:
			rec.to = append(rec.to, m.Ref)
		case m.Role == "via" && m.Type == osm.TypeNode:
			rec.viaNode = m.Ref
			viaNodes++
		case m.Role == "via" && m.Type == osm.TypeWay:
			rec.viaWays = append(rec.viaWays, m.Ref)
		}
	}
	switch {
	case len(rec.from) == 0 || len(rec.to) == 0:
		b.skip(skipNoFromTo)
	case viaNodes == 0 && len(rec.viaWays) == 0:
		b.skip(skipNoVia)
	case viaNodes > 1:
		b.skip(skipSeveralVia)
	case viaNodes == 1 && len(rec.viaWays) > 0:
		b.skip(skipViaMixed)
	default:
		b.rels = append(b.rels, rec)
	}
}

// skip counts a restriction skipped for reason.
func (b *builder) skip(reason string) {
	if b.skipped == nil {
		b.skipped = map[string]int{}
	}
	b.skipped[reason]++
	b.rep.RestrictionsSkipped++
}

// restrictionMapper maps restriction relations onto the network's edges.
type restrictionMapper struct {
	b        *builder
	net      *Network
	wayEdges [][2]uint32
	vid      []uint32
	wayIndex map[int64]int
	// interior counts via-node restrictions whose via node lies inside
	// the from or to way; partial those some of whose from or to ways
	// have no edge at the via.
	interior, partial int
}

// mapRestrictions turns the restriction records into edge restrictions
// (via node) and edge-path restrictions (via ways), counting each
// relation applied or skipped with its reason.
func (b *builder) mapRestrictions(net *Network, wayEdges [][2]uint32, vid []uint32) {
	m := &restrictionMapper{b: b, net: net, wayEdges: wayEdges, vid: vid, wayIndex: make(map[int64]int, len(b.ways))}
	for i, w := range b.ways {
		m.wayIndex[w.id] = i
	}
	for _, r := range b.rels {
		var reason string
		if len(r.viaWays) == 0 {
			reason = m.viaNode(r)
		} else {
			reason = m.viaWays(r)
		}
		if reason != "" {
			b.skip(reason)
			continue
		}
		b.rep.RestrictionsApplied++
		if r.kinds[0].cond != nil {
			b.rep.RestrictionsTimed++
		}
		if len(r.viaWays) > 0 {
			b.rep.RestrictionsViaWay++
		}
	}
	b.rep.RestrictionsSkippedBy = b.skipped
	if len(b.skipped) > 0 {
		var parts []string
		for _, reason := range slices.Sorted(maps.Keys(b.skipped)) {
			parts = append(parts, fmt.Sprintf("%d %s", b.skipped[reason], reason))
		}
		b.rep.Warnings = append(b.rep.Warnings, "turn restrictions skipped: "+strings.Join(parts, "; "))
	}
	if m.interior > 0 {
		b.rep.Warnings = append(b.rep.Warnings, fmt.Sprintf("turn restrictions with the via node inside the from or to way (not at its end): %d; every edge of that way at the via node got the restriction", m.interior))
	}
	if m.partial > 0 {
		b.rep.Warnings = append(b.rep.Warnings, fmt.Sprintf("turn restrictions applied to some of their from or to ways only (the others do not reach the via): %d", m.partial))
	}
}

// carWays returns the indexes of the car ways among ids.
func (m *restrictionMapper) carWays(ids []int64) []int {
	var out []int
	for _, id := range ids {
		if wi, ok := m.wayIndex[id]; ok {
			out = append(out, wi)
		}
	}
	return out
}

// incident returns the edges of way wi that touch vertex v.
func (m *restrictionMapper) incident(wi int, v uint32) []uint32 {
	var es []uint32
	r := m.wayEdges[wi]
	for e := r[0]; e < r[1]; e++ {
		if m.net.Edges[e].From == v || m.net.Edges[e].To == v {
			es = append(es, e)
		}
	}
	return es
}

// touches reports whether one of the ways wis has an edge at vertex v.
func (m *restrictionMapper) touches(wis []int, v uint32) bool {
	for _, wi := range wis {
		if len(m.incident(wi, v)) > 0 {
			return true
		}
	}
	return false
}

// atEnd reports whether OSM node index node is the first or last node of
// way wi.
func (m *restrictionMapper) atEnd(wi int, node int) bool {
	w := m.b.ways[wi]
	return m.b.refIdx[w.refStart] == uint32(node) || m.b.refIdx[w.refEnd-1] == uint32(node)
}

// viaNode maps a via-node restriction: every pair of a from way's and a
// to way's edge at the via vertex (only the same edge back when the from
// and to way are one: a U-turn), or returns why it cannot.
func (m *restrictionMapper) viaNode(r relRec) string {
	fromW, toW := m.carWays(r.from), m.carWays(r.to)
	if len(fromW) == 0 || len(toW) == 0 {
		return skipFromToNotCar
	}
	i, ok := slices.BinarySearch(m.b.ids, r.viaNode)
	if !ok || m.vid[i] == noVertex {
		return skipViaNotCar
	}
	v := m.vid[i]
	added, interior, missing := 0, false, false
	for _, fw := range fromW {
		from := m.incident(fw, v)
		missing = missing || len(from) == 0
		interior = interior || len(from) > 0 && !m.atEnd(fw, i)
		for _, tw := range toW {
			to := m.incident(tw, v)
			missing = missing || len(to) == 0
			interior = interior || len(to) > 0 && !m.atEnd(tw, i)
			for _, f := range from {
				for _, t := range to {
					if fw == tw && f != t {
						continue // a U-turn on one way, not straight through it
					}
					for _, k := range r.kinds {
						m.net.Restrictions = append(m.net.Restrictions, Restriction{FromEdge: f, ToEdge: t, Via: v, Only: k.only, Kind: k.kind, Cond: k.cond})
					}
					added++
				}
			}
		}
	}
	if added == 0 {
		return skipViaNotOnBoth
	}
	if interior {
		m.interior++
	}
	if missing {
		m.partial++
	}
	return ""
}

// wayEnds returns the first and last vertex of way wi when its edges
// run unbroken from its first OSM node to its last.
func (m *restrictionMapper) wayEnds(wi int) (first, last uint32, ok bool) {
	r := m.wayEdges[wi]
	if r[0] == r[1] {
		return 0, 0, false
	}
	es := m.net.Edges
	for e := r[0] + 1; e < r[1]; e++ {
		if es[e].From != es[e-1].To {
			return 0, 0, false
		}
	}
	w := m.b.ways[wi]
	first, last = es[r[0]].From, es[r[1]-1].To
	if m.vid[m.b.refIdx[w.refStart]] != first || m.vid[m.b.refIdx[w.refEnd-1]] != last {
		return 0, 0, false
	}
	return first, last, true
}

// viaWays maps a via-way restriction onto paths of directed edges: for
// each edge of a from way that drives into the first via way, the path
// from it along the via ways (each driven end to end, in member order),
// with the to ways' edges leaving the last one. It returns why it cannot.
func (m *restrictionMapper) viaWays(r relRec) string {
	fromW, toW := m.carWays(r.from), m.carWays(r.to)
	if len(fromW) == 0 || len(toW) == 0 {
		return skipFromToNotCar
	}
	vias := m.carWays(r.viaWays)
	if len(vias) != len(r.viaWays) {
		return skipViaWayNotCar
	}
	ends := make([][2]uint32, len(vias))
	for i, wi := range vias {
		a, z, ok := m.wayEnds(wi)
		switch {
		case !ok:
			return skipViaWayCut
		case a == z:
			return skipViaWayClosed
		}
		ends[i] = [2]uint32{a, z}
	}
	// Orient the via ways: the first one enters where a from way
	// touches it, each next one starts where the one before ends, and a
	// to way touches the last one's end.
	rev := make([]bool, len(vias))
	var chain func(i int, at uint32) (exit uint32, ok bool)
	chain = func(i int, at uint32) (uint32, bool) {
		if i == len(vias) {
			return at, m.touches(toW, at)
		}
		for _, back := range []bool{false, true} {
			start, end := ends[i][0], ends[i][1]
			if back {
				start, end = end, start
			}
			if start != at {
				continue
			}
			rev[i] = back
			if exit, ok := chain(i+1, end); ok {
				return exit, true
			}
		}
		return 0, false
	}
	var entry, exit uint32
	found := false
	for _, back := range []bool{false, true} {
		entry = ends[0][0]
		if back {
			entry = ends[0][1]
		}
		if !m.touches(fromW, entry) {
			continue
		}
		if exit, found = chain(0, entry); found {
			break
		}
	}
	if !found {
		return skipNotConnected
	}
	es := m.net.Edges
	var path []DirEdge
	for i, wi := range vias {
		r := m.wayEdges[wi]
		for k := r[0]; k < r[1]; k++ {
			e := k
			if rev[i] {
				e = r[1] - 1 - (k - r[0])
			}
			if rev[i] && !es[e].Backward || !rev[i] && !es[e].Forward {
				return skipViaWayOneway
			}
			path = append(path, DirEdge{Edge: e, Reverse: rev[i]})
		}
	}
	var tos []DirEdge
	for _, tw := range toW {
		for _, e := range m.incident(tw, exit) {
			tos = append(tos, DirEdge{Edge: e, Reverse: es[e].To == exit})
		}
	}
	added := 0
	for _, fw := range fromW {
		for _, e := range m.incident(fw, entry) {
			d := DirEdge{Edge: e, Reverse: es[e].From == entry}
			if d.Reverse && !es[e].Backward || !d.Reverse && !es[e].Forward {
				continue
			}
			p := append([]DirEdge{d}, path...)
			for _, k := range r.kinds {
				m.net.WayRestrictions = append(m.net.WayRestrictions, WayRestriction{Path: p, To: tos, Only: k.only, Kind: k.kind, Cond: k.cond})
			}
			added++
		}
	}
	if added == 0 {
		return skipFromNotDriven
	}
	return ""
}
