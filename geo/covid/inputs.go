package covid

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
)

// inputSource reads inputs from files or from the committed snapshot.
type inputSource struct {
	opts BuildOptions
	ds   *datasetConfig
	snap *Layer // nil unless some input comes from the snapshot
}

func newInputSource(opts BuildOptions, ds *datasetConfig) (*inputSource, error) {
	s := &inputSource{opts: opts, ds: ds}
	if opts.DataDir == "" {
		snap, err := Snapshot()
		if err != nil {
			return nil, err
		}
		if snap.meta.Dataset != ds.Name {
			return nil, fmt.Errorf("health: the committed snapshot holds data set %q, not %q: give the data directory", snap.meta.Dataset, ds.Name)
		}
		s.snap = snap
	}
	return s, nil
}

// path returns the file of an input, "" when it is to come from the
// snapshot or (optional inputs) not to be read.
func (s *inputSource) path(name, file string, optional bool) string {
	if p, ok := s.opts.Files[name]; ok && p != "" {
		return p
	}
	if optional || s.opts.DataDir == "" {
		return ""
	}
	return filepath.Join(s.opts.DataDir, filepath.FromSlash(file))
}

func (s *inputSource) lookup(ds *datasetConfig) (*lookup, error) {
	p := s.path(LookupName, ds.Lookup.File, false)
	if p == "" {
		lk := s.snap.lk
		// A copy, so that marking entries used leaves the snapshot alone.
		return &lookup{places: lk.places, stateFIPS: lk.stateFIPS, fipsPop: lk.fipsPop}, nil
	}
	f, err := os.Open(p)
	if err != nil {
		return nil, fmt.Errorf("health: lookup table: %w", err)
	}
	defer f.Close()
	lk, err := readLookup(f)
	if err != nil {
		return nil, fmt.Errorf("health: lookup table %s: %w", p, err)
	}
	return lk, nil
}

// read returns an input's rows or polygons and where they came from: the
// configured path, a given file's base name, "snapshot", or "" for an
// optional input not given.
func (s *inputSource) read(in *inputConfig, dateOf day) ([]rawRow, []polygon, string, error) {
	optional := !s.redistributable(in)
	p := s.path(in.Name, in.File, optional)
	if p == "" {
		if optional || s.snap == nil {
			return nil, nil, "", nil
		}
		rows, polys := s.snap.inputData(in.Name)
		if len(rows) == 0 && len(polys) == 0 {
			return nil, nil, "", fmt.Errorf("health: input %s is not in the committed snapshot: give the data directory or its file", in.Name)
		}
		if in.Layout == layoutTotals {
			rows = redate(rows, dateOf)
		}
		return rows, polys, "snapshot", nil
	}
	data, err := os.ReadFile(p)
	if err != nil {
		return nil, nil, "", fmt.Errorf("health: input %s: %w", in.Name, err)
	}
	// Where the data came from, as the layer file records it: the
	// configured relative path, or the base name of a file given in
	// Files (no absolute path, so that files do not depend on where the
	// inputs lay).
	where := in.File
	if s.opts.Files[in.Name] != "" {
		where = filepath.Base(p)
	}
	if in.Layout == layoutGeoJSON {
		polys, err := readPolygons(data, in.Name, in.Keys["code"])
		if err != nil {
			return nil, nil, "", fmt.Errorf("health: input %s (%s): %w", in.Name, p, err)
		}
		return nil, polys, where, nil
	}
	rows, err := readInput(in, bytes.NewReader(data), dateOf)
	if err != nil {
		return nil, nil, "", fmt.Errorf("health: input %s (%s): %w", in.Name, p, err)
	}
	return rows, nil, where, nil
}

// redistributable reports whether the input's source may be shipped;
// inputs of other sources are optional.
func (s *inputSource) redistributable(in *inputConfig) bool {
	return s.ds.Sources[in.Source].Redistributable
}

// redate moves one-point totals rows to dateOf (a snapshot's totals
// combined with newer trends).
func redate(rows []rawRow, dateOf day) []rawRow {
	out := make([]rawRow, len(rows))
	for i, r := range rows {
		s := *r.s
		s.start = dateOf
		r.s = &s
		out[i] = r
	}
	return out
}

// inputData returns the rows and polygons of the input called name.
func (l *Layer) inputData(name string) ([]rawRow, []polygon) {
	var rows []rawRow
	for _, r := range l.rows {
		if r.input == name {
			rows = append(rows, r)
		}
	}
	var polys []polygon
	for _, p := range l.polys {
		if p.input == name {
			polys = append(polys, p)
		}
	}
	return rows, polys
}
