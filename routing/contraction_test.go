package routing

import (
	"testing"

	"github.com/geosvc/geosvc/routing/osmroad"
)

func TestParseContraction(t *testing.T) {
	tests := []struct {
		in      string
		want    Contraction
		wantErr bool
	}{
		{"", ContractionAuto, false},
		{"auto", ContractionAuto, false},
		{" Greedy ", ContractionGreedy, false},
		{"nd", ContractionDerived, false},
		{"witness", ContractionAuto, true},
	}
	for _, tc := range tests {
		got, err := ParseContraction(tc.in)
		if (err != nil) != tc.wantErr || got != tc.want {
			t.Errorf("ParseContraction(%q) = %v, %v; want %v, error %v", tc.in, got, err, tc.want, tc.wantErr)
		}
		if err == nil && got.String() != map[Contraction]string{ContractionAuto: "auto", ContractionGreedy: "greedy", ContractionDerived: "nd"}[got] {
			t.Errorf("%v.String() = %q", got, got.String())
		}
	}
}

func TestContractionGreedyBySize(t *testing.T) {
	tests := []struct {
		c    Contraction
		n    int
		want bool
	}{
		{ContractionAuto, 172_000, true},
		{ContractionAuto, GreedyLimit, true},
		{ContractionAuto, GreedyLimit + 1, false},
		{ContractionGreedy, 25_000_000, true},
		{ContractionDerived, 1000, false},
	}
	for _, tc := range tests {
		if got := tc.c.greedy(tc.n); got != tc.want {
			t.Errorf("%v.greedy(%d) = %v, want %v", tc.c, tc.n, got, tc.want)
		}
	}
}

// TestContractionsAgree builds Andorra's graph with both contractions and
// checks that every cell of a 300 x 300 table, for both plain metrics, is
// the same: the two hierarchies differ in order and shortcuts, never in
// the costs they answer (each is checked against Dijkstra elsewhere:
// ch's and cch's own tests, and the routing tests on the default).
func TestContractionsAgree(t *testing.T) {
	path := extractPath(t, "andorra")
	prof := carProfile(t)
	var graphs [2]*Graph
	for i, c := range []Contraction{ContractionGreedy, ContractionDerived} {
		net, err := osmroad.Read(path, prof)
		if err != nil {
			t.Fatal(err)
		}
		g, rep, err := Build(net, prof, WithContraction(c))
		if err != nil {
			t.Fatal(err)
		}
		if rep.Greedy != (c == ContractionGreedy) {
			t.Fatalf("%v: report says greedy %v", c, rep.Greedy)
		}
		graphs[i] = g
	}
	src := roadPoints(graphs[0], 300, 41, 10)
	dst := roadPoints(graphs[0], 300, 42, 10)
	for _, m := range []Metric{Fastest, Shortest} {
		var tabs [2]Table
		for i, g := range graphs {
			tg, err := g.NewTargets(bg, m, dst, 2)
			if err != nil {
				t.Fatal(err)
			}
			if tabs[i], err = g.Table(bg, src, tg); err != nil {
				t.Fatal(err)
			}
		}
		diff, routed := 0, 0
		for k := range tabs[0].Durations {
			if tabs[0].Durations[k] != tabs[1].Durations[k] || tabs[0].Distances[k] != tabs[1].Distances[k] {
				diff++
			}
			if tabs[0].Durations[k] != NoRoute {
				routed++
			}
		}
		if diff != 0 {
			t.Errorf("%v: %d of %d cells differ between the greedy and the derived hierarchy", m, diff, len(tabs[0].Durations))
		}
		if routed < len(tabs[0].Durations)/2 {
			t.Errorf("%v: only %d cells routed", m, routed)
		}
	}
}
