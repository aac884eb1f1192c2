// Command scaletile makes a larger road network out of a real extract, for
// the country-scale figures of BENCHMARKS.md and docs/scale.md (make
// bench-scale): the extract is copied K x K times side by side, each copy
// shifted by the extract's width east or its height north with ids of its
// own, and neighbouring copies are joined by two-way trunk roads between
// junctions of two-way roads near their common border (one per strip of
// -bands), so that the copies form one routable network.
//
//	go run ./scripts/scaletile -k 4 -out /tmp/delaware-4x4.osm.pbf
//
// Everything of the extract is copied (roads, turn restrictions,
// boundaries, addresses, buildings), so that every layer of a bundle
// grows with K². The tiling is written as OPL and converted to PBF by
// osmium (Debian: osmium-tool), which writes dense nodes.
package main

import (
	"flag"
	"fmt"
	"log"
	"os"
	"os/exec"
	"time"

	"github.com/paulmach/osm"

	"github.com/geosvc/geosvc/geo/osmfile"
	"github.com/geosvc/geosvc/geo/osmfile/extracts"
)

func main() {
	in := flag.String("in", "", "extract to tile (default: the Delaware extract of the paulmach/osm module)")
	k := flag.Int("k", 2, "copies per side: the network is K x K copies")
	bands := flag.Int("bands", 4, "joins per border between neighbouring copies")
	out := flag.String("out", "", "output file: .osm.pbf (through osmium) or .opl")
	flag.Parse()
	if *k < 1 || *k > 64 || *bands < 1 || *out == "" || flag.NArg() > 0 {
		log.Fatalf("scaletile: want -k 1..64, -bands >= 1 and -out FILE (usage: scaletile [-in EXTRACT] -k K [-bands B] -out FILE.osm.pbf)")
	}
	if *in == "" {
		p, err := extracts.Path("delaware")
		if err != nil {
			log.Fatalf("scaletile: %v", err)
		}
		*in = p
	}
	start := time.Now()
	e, err := readExtract(*in)
	if err != nil {
		log.Fatalf("scaletile: %v", err)
	}
	t := newTiling(e, *k, *bands)
	log.Printf("read %s: %d nodes, %d ways, %d relations in %v; %d join ends per border",
		*in, len(e.nodes), len(e.ways), len(e.relations), time.Since(start).Round(time.Millisecond), min(len(t.east), len(t.west)))
	st, err := writeTiling(t, *out)
	if err != nil {
		log.Fatalf("scaletile: %v", err)
	}
	fi, err := os.Stat(*out)
	if err != nil {
		log.Fatalf("scaletile: %v", err)
	}
	fmt.Printf("wrote %s: %d x %d copies, %d nodes, %d ways (%d joins), %d relations, %d MB in %v\n",
		*out, *k, *k, st.Nodes, st.Ways+st.Joins, st.Joins, st.Relations, fi.Size()>>20, time.Since(start).Round(time.Second))
}

// readExtract reads every object of the extract at path.
func readExtract(path string) (*extract, error) {
	f, err := osmfile.Open(path)
	if err != nil {
		return nil, err
	}
	e := &extract{}
	_, err = f.Scan(osmfile.Filter{}, func(o osm.Object) error {
		e.add(o)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(e.nodes) == 0 {
		return nil, fmt.Errorf("%s has no nodes", path)
	}
	return e, nil
}

// writeTiling writes the tiling to path: OPL directly, or a PBF through
// `osmium cat`.
func writeTiling(t *tiling, path string) (Stats, error) {
	if len(path) > 4 && path[len(path)-4:] == ".opl" {
		f, err := os.Create(path)
		if err != nil {
			return Stats{}, err
		}
		st, err := t.write(f)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		return st, err
	}
	osmium, err := exec.LookPath("osmium")
	if err != nil {
		return Stats{}, fmt.Errorf("writing a PBF needs osmium (Debian: apt-get install osmium-tool), or give -out FILE.opl: %w", err)
	}
	cmd := exec.Command(osmium, "cat", "--no-progress", "-F", "opl", "-", "-o", path, "-f", "pbf", "--overwrite")
	cmd.Stderr = os.Stderr
	w, err := cmd.StdinPipe()
	if err != nil {
		return Stats{}, err
	}
	if err := cmd.Start(); err != nil {
		return Stats{}, err
	}
	st, werr := t.write(w)
	cerr := w.Close()
	if err := cmd.Wait(); err != nil {
		return st, fmt.Errorf("osmium: %w", err)
	}
	if werr != nil {
		return st, werr
	}
	return st, cerr
}
