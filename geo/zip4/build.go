package zip4

import (
	"fmt"
	"path/filepath"

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
		var rep *Report
		features, rep = Derive(src.Roads, dopts)
		meta = Meta{Source: SourceDerived, Derived: true, Input: src.Name, Report: rep}
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
// containing the point whose relation id has a FIPS code in fips. It
// returns nil when l is nil or fips is empty.
func BoundaryCounties(l *boundary.Layer, fips map[int64]string) CountyFinder {
	if l == nil || len(fips) == 0 {
		return nil
	}
	return boundaryCounties{l, fips}
}

type boundaryCounties struct {
	l    *boundary.Layer
	fips map[int64]string
}

// CountyFIPS implements CountyFinder.
func (b boundaryCounties) CountyFIPS(p orb.Point) (string, bool) {
	for _, a := range b.l.AdminHierarchy(p) {
		if a.AdminLevel != 6 {
			continue
		}
		if f, ok := b.fips[a.ID]; ok {
			return f, true
		}
	}
	return "", false
}
