package zip4

import (
	"fmt"
	"runtime"
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
	faces := splitFaces(roads, rep)
	segs := newSegIndex(roads, faces)

	type result struct {
		ring orb.Ring
		rep  orb.Point
		why  string
	}
	results := make([][2]result, len(faces))
	var wg sync.WaitGroup
	next := make(chan int, 256)
	for range opts.Workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			b := &sideBuilder{roads: roads, faces: faces, segs: segs, maxDepth: opts.MaxDepth,
				spacing: opts.Spacing, stamp: make([]int32, len(segs.segs))}
			for fi := range next {
				for side := left; side <= right; side++ {
					if faces[fi].zip[side] == "" {
						continue
					}
					r, p, why := b.sidePolygon(fi, side)
					results[fi][side] = result{r, p, why}
				}
			}
		}()
	}
	for fi := range faces {
		next <- fi
	}
	close(next)
	wg.Wait()

	has := map[sideKey]bool{}
	for fi := range faces {
		for side := left; side <= right; side++ {
			if faces[fi].zip[side] == "" {
				continue
			}
			rep.Sides++
			switch results[fi][side].why {
			case "":
				has[sideKey{fi, side}] = true
			case "invalid":
				rep.Invalid++
			default:
				rep.Degenerate++
			}
		}
	}
	codes := assignPlus4(roads, faces, has, rep)
	features := make([]Feature, 0, len(codes))
	for fi := range faces {
		for side := left; side <= right; side++ {
			code, ok := codes[sideKey{fi, side}]
			if !ok {
				continue
			}
			f := &faces[fi]
			res := results[fi][side]
			sideName, letter := SideLeft, "L"
			if side == right {
				sideName, letter = SideRight, "R"
			}
			feat := Feature{
				UID:      fmt.Sprintf("w%d.%d.%s", roads[f.road].ID, f.index, letter),
				Zip9:     code,
				Street:   roads[f.road].Name,
				Side:     sideName,
				Geometry: orb.MultiPolygon{{res.ring}},
				Rep:      res.rep,
			}
			if opts.Counties != nil {
				feat.FIPS, _ = opts.Counties.CountyFIPS(res.rep)
			}
			if feat.FIPS == "" {
				rep.NoFIPS++
			}
			features = append(features, feat)
		}
	}
	sortFeatures(features)
	rep.Features = len(features)
	return features, rep
}
