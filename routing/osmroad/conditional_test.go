package osmroad

import (
	"maps"
	"strings"
	"testing"
)

// TestConditionalKinds: the restrictions a relation makes from its plain
// and conditional values, each with its closed minutes of the week
// (Monday 00:00 = 0; Saturday starts at 7200) worked out by hand, "!"
// where it holds without a time; and the parts skipped by reason.
func TestConditionalKinds(t *testing.T) {
	weekdays79 := "[420-540 1860-1980 3300-3420 4740-4860 6180-6300]"
	for _, c := range []struct {
		name    string
		plain   string // "" for none
		cond    string
		want    string
		skipped map[string]int
	}{
		{"plain only", "no_left_turn", "", "no_left_turn", nil},
		{"conditional only", "", "no_left_turn @ (Mo-Fr 07:00-09:00)", "no_left_turn " + weekdays79, nil},
		{"lifted at weekends", "no_left_turn", "none @ (Sa,Su)", "no_left_turn [0-7200]!", nil},
		{"only_ conditional", "", "only_straight_on @ (Sa 10:00-12:00)", "only_straight_on [7800-7920]", nil},
		// The later part wins where both hold: no_u_turn all week but
		// Saturday, no_left_turn... on Saturday.
		{"later wins", "", "no_u_turn @ (Mo-Su); no_left_turn @ (Sa)", "no_u_turn [0-7200 8640-10080]; no_left_turn [7200-8640]", nil},
		// Another kind than the plain one at some times: the plain one
		// the rest of the week (and without a time).
		{"plain and other kind", "no_left_turn", "no_u_turn @ (Su)", "no_left_turn [0-8640]!; no_u_turn [8640-10080]", nil},
		{"repeats the plain value", "no_left_turn", "no_left_turn @ (Mo)", "no_left_turn", nil},
		{"weight kept as plain", "no_left_turn", "none @ (weight>7.5)", "no_left_turn", map[string]int{"vehicle property (weight, length, ...)": 1}},
		{"weight without plain", "", "no_left_turn @ (weight>7.5)", "", map[string]int{"vehicle property (weight, length, ...)": 1}},
		{"not a restriction", "", "yes @ (Mo)", "", map[string]int{skipNotRestriction: 1}},
		{"none only", "", "none @ (Mo)", "", nil},
		{"partly readable", "", "no_left_turn @ wet; no_right_turn @ (Su 23:00-01:00)", "no_right_turn [0-60 10020-10080]", map[string]int{"weather (wet, snow, ...)": 1}},
	} {
		b := &builder{}
		kinds := b.conditionalKinds(c.plain, strings.HasPrefix(c.plain, "only_"), c.plain != "", c.cond)
		var got []string
		for _, k := range kinds {
			s := k.kind
			if k.cond != nil {
				s += " " + describeCond(k.cond)
			}
			if k.only != strings.HasPrefix(k.kind, "only_") {
				s += " (only wrong)"
			}
			got = append(got, s)
		}
		if strings.Join(got, "; ") != c.want || !maps.Equal(b.rep.CondRestrictionSkipped, c.skipped) && len(c.skipped)+len(b.rep.CondRestrictionSkipped) > 0 {
			t.Errorf("%s: %q skipped %v; want %q skipped %v", c.name, strings.Join(got, "; "), b.rep.CondRestrictionSkipped, c.want, c.skipped)
		}
	}
}
