package routing

import (
	"os"
	"runtime/pprof"
	"testing"
	"time"

	"github.com/geosvc/geosvc/routing/ch"
	"github.com/geosvc/geosvc/routing/osmroad"
)

func TestZZProfContract(t *testing.T) {
	prof := carProfile(t)
	net, err := osmroad.Read(extractPath(t, "delaware"), prof)
	if err != nil {
		t.Fatal(err)
	}
	arcs, usable, _ := buildBaseGraph(net, prof.TurnCostS)
	keep, _ := largestComponent(arcs, usable)
	g := &Graph{}
	_ = keep
	_ = g
	// dense
	idx := make([]int32, len(arcs))
	n := 0
	for i := range arcs {
		idx[i] = -1
		if keep[i] {
			idx[i] = int32(n)
			n++
		}
	}
	var cas []ch.Arc
	for id := range arcs {
		if !keep[id] {
			continue
		}
		ms, dm := edgeCosts(&net.Edges[id/2], uint32(id%2))
		_ = ms
		_ = dm
		for _, a := range arcs[id] {
			if idx[a.head] >= 0 {
				hms, hdm := edgeCosts(&net.Edges[a.head/2], a.head%2)
				cas = append(cas, ch.Arc{From: uint32(idx[id]), To: uint32(idx[a.head]), Weight: weight(Fastest, int64(a.ms+hms), int64(hdm))})
			}
		}
	}
	f, _ := os.Create("/tmp/contract.prof")
	pprof.StartCPUProfile(f)
	t0 := time.Now()
	h := ch.Contract(n, cas, ch.Options{})
	pprof.StopCPUProfile()
	t.Logf("contract %v, %d shortcuts", time.Since(t0), h.Shortcuts())
	q := h.NewQuery()
	var tg [][]ch.Endpoint
	for i := 0; i < 1000; i++ {
		tg = append(tg, []ch.Endpoint{{Node: uint32(i * 97 % n)}})
	}
	for rep := 0; rep < 3; rep++ {
		t0 = time.Now()
		b := q.NewBuckets(tg)
		tb := time.Since(t0)
		row := make([]int64, 1000)
		t0 = time.Now()
		for i := 0; i < 1000; i++ {
			q.Row([]ch.Endpoint{{Node: uint32(i * 131 % n)}}, b, row)
		}
		t.Logf("buckets %v (%d entries), rows %v", tb, b.Entries(), time.Since(t0))
	}
}
