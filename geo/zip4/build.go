package zip4

import (
	"fmt"
	"math"
	"path/filepath"
	"runtime"

	"github.com/paulmach/orb"
	"github.com/paulmach/osm"

	"github.com/geosvc/geosvc/geo/boundary"
	"github.com/geosvc/geosvc/geo/osmfile"
)

// BuildOptions configures Build.
type BuildOptions struct {
	// OSMPath is the OSM extract: its TIGER streets make the derived
	// layer, its county relations the FIPS codes.
	OSMPath string
	// Out is the bundle directory FileName is written into.
	Out string
	// File, when set, is an authoritative ZIP+4 GeoJSON file (see
	// ReadGeoJSON) that replaces the derived layer.
	File string
	// Boundaries is the bundle's boundary layer, used for the county at
	// each feature's representative point; nil leaves FIPS empty (unless
	// the file gives it).
	Boundaries *boundary.Layer
	// Derive tunes the derivation (Counties is set by Build).
	Derive Options
}

// Build makes the ZIP+4 layer (derived from the extract's TIGER streets,
// or read from opts.File) and writes it to opts.Out. It returns the
// layer's description.
func Build(opts BuildOptions) (Meta, error) {
	var features []Feature
	var meta Meta
	if opts.File != "" {
		fips, err := ReadCountyFIPS(opts.OSMPath)
		if err != nil {
			return meta, err
		}
		features, err = ReadGeoJSON(opts.File)
		if err != nil {
			return meta, err
		}
		counties := BoundaryCounties(opts.Boundaries, fips)
		for i := range features {
			if features[i].FIPS == "" && counties != nil {
				features[i].FIPS, _ = counties.CountyFIPS(features[i].Rep)
			}
		}
		meta = Meta{Source: SourceFile, Derived: false, Input: filepath.Base(opts.File)}
	} else {
		src, err := ReadOSM(opts.OSMPath)
		if err != nil {
			return meta, err
		}
		dopts := opts.Derive
		if c := BoundaryCounties(opts.Boundaries, src.CountyFIPS); c != nil {
			dopts.Counties = c
		}
		// The features go into the layer as they are made (in order), so
		// that they are never all held as Features.
		var b layerBuilder
		rep := derive(src.Roads, dopts, true, b.add)
		src.Roads = nil
		runtime.GC() // the street network is garbage: free it before the layer is joined
		l := b.layer(Meta{Source: SourceDerived, Derived: true, Input: src.Name, Report: rep})
		if err := l.WriteFile(opts.Out); err != nil {
			return meta, err
		}
		return l.Meta(), nil
	}
	l := NewLayer(features, meta)
	if err := l.WriteFile(opts.Out); err != nil {
		return meta, err
	}
	return l.Meta(), nil
}

// ReadCountyFIPS reads the FIPS codes of an OSM file's county relations
// (one pass over the relations only), by relation id.
func ReadCountyFIPS(path string) (map[int64]string, error) {
	f, err := osmfile.Open(path)
	if err != nil {
		return nil, fmt.Errorf("zip4: %w", err)
	}
	out := map[int64]string{}
	_, err = f.Scan(osmfile.Filter{SkipNodes: true, SkipWays: true,
		Relation: func(r *osm.Relation) bool { return countyFIPS(r.Tags) != "" },
	}, func(o osm.Object) error {
		if r, ok := o.(*osm.Relation); ok {
			out[int64(r.ID)] = countyFIPS(r.Tags)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("zip4: %w", err)
	}
	return out, nil
}

// BoundaryCounties returns a CountyFinder answering from the boundary
// layer: the administrative area of OSM admin_level 6 (a US county)
// containing the point whose relation id has a FIPS code in fips, else
// the world base layer's Census county there (its id carries its FIPS
// code). It returns nil when l is nil.
func BoundaryCounties(l *boundary.Layer, fips map[int64]string) CountyFinder {
	if l == nil {
		return nil
	}
	return boundaryCounties{l, fips}
}

type boundaryCounties struct {
	l    *boundary.Layer
	fips map[int64]string
}

// CountyFIPS implements CountyFinder: the county containing p, else the
// nearest one within 2 km.
func (b boundaryCounties) CountyFIPS(p orb.Point) (string, bool) {
	if f, ok := b.containingFIPS(p); ok {
		return f, true
	}
	return b.nearFIPS(p)
}

// containingFIPS returns the FIPS code of the county containing p.
func (b boundaryCounties) containingFIPS(p orb.Point) (string, bool) {
	for _, a := range b.l.AdminHierarchy(p) {
		if a.AdminLevel != 6 {
			continue
		}
		if f, ok := b.fips[a.ID]; ok {
			return f, true
		}
		if a.Source == boundary.SourceCensus && a.Admin == 2 && a.ID > boundary.BaseUSID {
			return fmt.Sprintf("%05d", a.ID-boundary.BaseUSID), true
		}
	}
	return "", false
}

// nearFIPS is CountyFIPS of the nearest of a few points around p, at
// 100 m to 2 km in eight directions, for a point that lies in no county
// (a riverbank face outside a coarse Census outline).
func (b boundaryCounties) nearFIPS(p orb.Point) (string, bool) {
	kx := 1 / (111_320 * math.Cos(p[1]*math.Pi/180))
	const ky = 1 / 110_574.0
	for _, r := range []float64{100, 250, 500, 1000, 2000} {
		for k := 0; k < 8; k++ {
			a := float64(k) * math.Pi / 4
			q := orb.Point{p[0] + r*math.Cos(a)*kx, p[1] + r*math.Sin(a)*ky}
			if f, ok := b.containingFIPS(q); ok {
				return f, true
			}
		}
	}
	return "", false
}
