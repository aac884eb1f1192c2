package osmroad

import (
	"strings"

	"github.com/geosvc/geosvc/routing/speeds"
)

// Conditional turn restrictions (restriction:conditional and
// restriction:<type>:conditional): "no_left_turn @ (Mo-Fr 07:00-09:00)",
// or on a relation with a plain value "none @ (Sa,Su)", which lifts the
// plain one at those times. Where parts overlap the later wins, as OSM
// reads conditions; outside every part the plain value (if any) holds.
// Parts whose condition is not a time (wet, weight, months, ...) are
// counted by reason and read as absent.

// skipNotRestriction is the reason a conditional part whose value is
// neither none, no_* nor only_* is skipped.
const skipNotRestriction = "not a restriction value"

// conditionalKinds returns the restrictions a relation makes: its plain
// value (kind, only; hasPlain false when it has none) and its
// conditional value cond ("" when none), each with when it is in force.
// A relation without a readable conditional part gives its plain value
// alone, always in force (none without one: ignored).
func (b *builder) conditionalKinds(kind string, only, hasPlain bool, cond string) []relKind {
	plain := []relKind{{kind: kind, only: only}}
	if !hasPlain {
		plain = nil
	}
	if cond == "" {
		return plain
	}
	parts, skipped := speeds.ParseConditional(cond)
	for _, r := range skipped {
		b.condSkip(r)
	}
	valid := parts[:0]
	for _, p := range parts {
		if p.Value != "none" && !strings.HasPrefix(p.Value, "no_") && !strings.HasPrefix(p.Value, "only_") {
			b.condSkip(skipNotRestriction)
			continue
		}
		valid = append(valid, p)
	}
	if len(valid) == 0 {
		return plain
	}
	// Each value's minutes: a part's own less those of later parts.
	spans := map[string][]speeds.WeekSpan{}
	var order []string
	add := func(v string, s []speeds.WeekSpan) {
		if _, ok := spans[v]; !ok {
			order = append(order, v)
		}
		spans[v] = speeds.MergeSpans(append(spans[v], s...))
	}
	var covered []speeds.WeekSpan
	for i := len(valid) - 1; i >= 0; i-- {
		add(valid[i].Value, speeds.SubtractSpans(valid[i].Spans, covered))
		covered = speeds.MergeSpans(append(covered, valid[i].Spans...))
	}
	if hasPlain {
		add(kind, speeds.ComplementSpans(covered))
	}
	var out []relKind
	emit := func(v string) {
		c := &TurnCond{Closed: spans[v], NoTime: hasPlain && v == kind}
		if c.NoTime && len(c.Closed) == 1 && c.Closed[0] == (speeds.WeekSpan{From: 0, To: speeds.WeekMinutes}) {
			c = nil // in force at every time after all
		} else if !c.NoTime && len(c.Closed) == 0 {
			return // never in force
		}
		out = append(out, relKind{kind: v, only: strings.HasPrefix(v, "only_"), cond: c})
	}
	if hasPlain {
		emit(kind)
	}
	for i := len(order) - 1; i >= 0; i-- {
		if v := order[i]; v != "none" && !(hasPlain && v == kind) {
			emit(v)
		}
	}
	if len(out) > 0 && out[0].cond == nil {
		return out[:1] // the plain value holds always (every part repeats it)
	}
	return out
}

// condSkip counts a conditional part not read, for reason.
func (b *builder) condSkip(reason string) {
	if b.rep.CondRestrictionSkipped == nil {
		b.rep.CondRestrictionSkipped = map[string]int{}
	}
	b.rep.CondRestrictionSkipped[reason]++
}
