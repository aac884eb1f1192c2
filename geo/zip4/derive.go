package zip4

import (
	"fmt"
	"runtime"
	"slices"
	"sort"
	"sync"

	"github.com/paulmach/orb"
)

// CountyFinder tells the county at a point; the boundary layer answers it
// at build time (see BoundaryCounties).
type CountyFinder interface {
	// CountyFIPS returns the five-digit FIPS code of the county containing
	// p (lon/lat), false when no county of the data does.
	CountyFIPS(p orb.Point) (string, bool)
}

// Options configures Derive.
type Options struct {
	// MaxDepth is how far a face side's polygon reaches from its street,
	// in metres; 0 means DefaultMaxDepth.
	MaxDepth float64
	// Spacing is the distance between the rays cast from a face, in
	// metres; 0 means DefaultSpacing.
	Spacing float64
	// Counties gives each feature its county FIPS code; nil leaves FIPS
	// empty.
	Counties CountyFinder
	// Workers is the number of goroutines building polygons; 0 means
	// GOMAXPROCS.
	Workers int
}

// Report says what Derive did.
type Report struct {
	// Roads is the number of street ways read; TigerRoads those with a
	// tiger:zip_left or tiger:zip_right tag.
	Roads      int `json:"roads"`
	TigerRoads int `json:"tiger_roads"`
	// Faces is the number of block faces with a ZIP on either side.
	Faces int `json:"faces"`
	// Sides is the number of face sides with a ZIP5.
	Sides int `json:"sides"`
	// Features is the number of features made (sides with a polygon and
	// a code).
	Features int `json:"features"`
	// ZIP5s is the number of distinct ZIP5 codes among the features.
	ZIP5s int `json:"zip5s"`
	// ListTags counts side tags listing several ZIP5s (the first is
	// used); BadTags those with no valid ZIP5 (the side is skipped).
	ListTags int `json:"list_tags"`
	BadTags  int `json:"bad_tags"`
	// Degenerate counts sides dropped for having no area (a street fully
	// shadowed by others); Invalid those whose polygon stayed
	// self-intersecting after shrinking.
	Degenerate int `json:"degenerate"`
	Invalid    int `json:"invalid"`
	// Overflow counts sides dropped because their ZIP5 ran out of +4
	// codes; SequentialZips are the ZIP5s numbered without parity.
	Overflow       int      `json:"overflow"`
	SequentialZips []string `json:"sequential_zips,omitempty"`
	// NoFIPS counts features whose representative point is in no county.
	NoFIPS int `json:"no_fips"`
	// MaxDepthM and SpacingM are the parameters used.
	MaxDepthM float64 `json:"max_depth_m"`
	SpacingM  float64 `json:"spacing_m"`
}

// String summarises the report on one line.
func (r *Report) String() string {
	return fmt.Sprintf("%d streets (%d TIGER-tagged), %d block faces, %d sides with a ZIP5 -> %d features in %d ZIP5s; "+
		"dropped: %d degenerate, %d invalid, %d over 9999; %d list tags (first ZIP used), %d bad tags, %d without county",
		r.Roads, r.TigerRoads, r.Faces, r.Sides, r.Features, r.ZIP5s, r.Degenerate, r.Invalid, r.Overflow,
		r.ListTags, r.BadTags, r.NoFIPS)
}

// Derive builds the derived ZIP+4 features of a street network: one per
// side of every block face with a TIGER ZIP, in a deterministic order
// (by zip9). The result does not depend on Workers.
func Derive(roads []Road, opts Options) ([]Feature, *Report) {
	var features []Feature
	rep := derive(roads, opts, false, func(f *Feature) { features = append(features, *f) })
	return features, rep
}

// batchSides is about the number of face sides whose polygons are built
// and held at once: whole ZIP5s, at least this many sides a batch.
const batchSides = 1 << 15

// derive is Derive handing the features to emit one at a time, in their
// order (by zip9, then uid), instead of returning them: it builds the
// polygons of a batch of ZIP5s at a time (the +4 codes of a ZIP5 depend
// on its sides alone), so that the polygons of the whole network are
// never held at once. emit may keep the feature and its geometry. With
// dropNodes it drops the roads' node lists once the faces are cut (the
// caller owns roads; the rest needs their points, ids and names only).
func derive(roads []Road, opts Options, dropNodes bool, emit func(f *Feature)) *Report {
	if opts.MaxDepth <= 0 {
		opts.MaxDepth = DefaultMaxDepth
	}
	if opts.Spacing <= 0 {
		opts.Spacing = DefaultSpacing
	}
	if opts.Workers <= 0 {
		opts.Workers = runtime.GOMAXPROCS(0)
	}
	rep := &Report{Roads: len(roads), MaxDepthM: opts.MaxDepth, SpacingM: opts.Spacing}
	faces, zips := splitFaces(roads, rep)
	if dropNodes {
		for i := range roads {
			roads[i].Nodes = nil
		}
	}
	segs := newSegIndex(roads)

	// The sides with a ZIP5 (2*face+side), by ZIP5, then face and side.
	var sides []int32
	for fi := range faces {
		for side := left; side <= right; side++ {
			if faces[fi].zip[side] != 0 {
				sides = append(sides, int32(2*fi+side))
			}
		}
	}
	zipOf := func(s int32) int32 { return faces[s/2].zip[s%2] }
	sort.SliceStable(sides, func(i, j int) bool { return zipOf(sides[i]) < zipOf(sides[j]) })

	pool := newSidePool(roads, faces, segs, opts)
	defer pool.close()
	for lo := 0; lo < len(sides); {
		hi := lo + 1
		for hi < len(sides) && (hi-lo < batchSides || zipOf(sides[hi]) == zipOf(sides[hi-1])) {
			hi++
		}
		results := pool.run(sides[lo:hi])
		for a := lo; a < hi; {
			b := a + 1
			for b < hi && zipOf(sides[b]) == zipOf(sides[a]) {
				b++
			}
			emitZip(roads, faces, zips, zipOf(sides[a]), sides[a:b], results[a-lo:b-lo], opts.Counties, rep, emit)
			a = b
		}
		lo = hi
	}
	return rep
}

// sideResult is the polygon of a face side, or why it has none.
type sideResult struct {
	ring orb.Ring
	rep  orb.Point
	why  string
}

// emitZip numbers the sides of ZIP5 zips[zi] (sides, in face order, and
// their results) and emits their features in zip9 order.
func emitZip(roads []Road, faces []face, zips []string, zi int32, sides []int32, results []sideResult, counties CountyFinder, rep *Report, emit func(*Feature)) {
	z := zips[zi]
	var fs []int
	for k, s := range sides {
		rep.Sides++
		switch results[k].why {
		case "":
			if fi := int(s / 2); len(fs) == 0 || fs[len(fs)-1] != fi {
				fs = append(fs, fi)
			}
		case "invalid":
			rep.Invalid++
		default:
			rep.Degenerate++
		}
	}
	at := func(fi, side int) int {
		k, _ := slices.BinarySearch(sides, int32(2*fi+side))
		return k
	}
	has := func(fi, side int) bool { return results[at(fi, side)].why == "" }
	var features []Feature
	numberZip(roads, faces, z, zi, fs, has, rep, func(fi, side, add int) {
		f := &faces[fi]
		res := &results[at(fi, side)]
		sideName, letter := SideLeft, "L"
		if side == right {
			sideName, letter = SideRight, "R"
		}
		features = append(features, Feature{
			UID:      fmt.Sprintf("w%d.%d.%s", roads[f.road].ID, f.index, letter),
			Zip9:     fmt.Sprintf("%s%04d", z, add),
			Street:   roads[f.road].Name,
			Side:     sideName,
			Geometry: orb.MultiPolygon{{res.ring}},
			Rep:      res.rep,
		})
	})
	sortFeatures(features)
	for i := range features {
		f := &features[i]
		if counties != nil {
			f.FIPS, _ = counties.CountyFIPS(f.Rep)
		}
		if f.FIPS == "" {
			rep.NoFIPS++
		}
		rep.Features++
		emit(f)
	}
}

// sidePool builds side polygons on Options.Workers goroutines, each with
// a sideBuilder of its own.
type sidePool struct {
	next    chan int
	wg      sync.WaitGroup
	sides   []int32
	results []sideResult
	stop    func()
}

func newSidePool(roads []Road, faces []face, segs *segIndex, opts Options) *sidePool {
	p := &sidePool{next: make(chan int, 256)}
	var workers sync.WaitGroup
	for range opts.Workers {
		workers.Add(1)
		go func() {
			defer workers.Done()
			b := &sideBuilder{roads: roads, faces: faces, segs: segs, maxDepth: opts.MaxDepth, spacing: opts.Spacing}
			for k := range p.next {
				s := p.sides[k]
				r, pt, why := b.sidePolygon(int(s/2), int(s%2))
				p.results[k] = sideResult{r, pt, why}
				p.wg.Done()
			}
		}()
	}
	p.stop = func() {
		close(p.next)
		workers.Wait()
	}
	return p
}

// run returns the results of the sides (2*face+side), in their order.
func (p *sidePool) run(sides []int32) []sideResult {
	p.sides, p.results = sides, make([]sideResult, len(sides))
	p.wg.Add(len(sides))
	for k := range sides {
		p.next <- k
	}
	p.wg.Wait()
	return p.results
}

func (p *sidePool) close() { p.stop() }
