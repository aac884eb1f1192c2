package health

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/configs"
)

// DefaultDataset is the data set Build reads when none is named.
const DefaultDataset = "covid"

// LookupName is the key of the lookup table in BuildOptions.Files.
const LookupName = "lookup"

// BuildOptions configures Build.
type BuildOptions struct {
	// ConfigYAML is a health.yaml; nil uses the embedded configs/health.yaml.
	ConfigYAML []byte
	// Dataset is the data set to build (default DefaultDataset).
	Dataset string
	// DataDir is the directory the inputs' files are relative to (for
	// COVID-19, shared/data/covid with jhu/, nyc/ and nyt/). When empty,
	// the inputs come from the committed snapshot (see Snapshot) unless
	// Files names them.
	DataDir string
	// Files gives the path of inputs by name (and of the lookup table as
	// LookupName), overriding DataDir. An input of a source that is not
	// redistributable (NYT) is read only when given here.
	Files map[string]string
	// OSMPath is the OSM extract whose businesses make the density grid;
	// empty builds none.
	OSMPath string
	// Areas are geometries of records by id (for example the bundle's US
	// states and counties); those lying inside the extract get their
	// business density stored in the layer. NYC ZIP areas use their own
	// polygons.
	Areas map[string]orb.MultiPolygon
}

// Build loads a data set from its input files (or the committed snapshot)
// and, when opts.OSMPath is set, builds the business density grid. The
// report lists every row that did not become a record of its own.
func Build(opts BuildOptions) (*Layer, *Report, error) {
	cfgYAML := opts.ConfigYAML
	if cfgYAML == nil {
		var err error
		if cfgYAML, err = configs.FS.ReadFile(configFile); err != nil {
			return nil, nil, fmt.Errorf("health: %w", err)
		}
	}
	cfg, err := parseConfig(cfgYAML)
	if err != nil {
		return nil, nil, err
	}
	name := opts.Dataset
	if name == "" {
		name = DefaultDataset
	}
	ds, ok := cfg.dataset(name)
	if !ok {
		return nil, nil, fmt.Errorf("health: no data set %q in the configuration", name)
	}
	src, err := newInputSource(opts, ds)
	if err != nil {
		return nil, nil, err
	}
	l := &Layer{cfgYAML: cfgYAML, cfg: cfg, ds: ds, meta: fileMeta{Dataset: ds.Name, Title: ds.Title}}
	rep := &Report{}
	if l.lk, err = src.lookup(ds); err != nil {
		return nil, nil, err
	}
	if err := l.readInputs(ds, src, rep); err != nil {
		return nil, nil, err
	}
	areas, rrep, err := resolve(ds, l.lk, l.rows, l.polys)
	if err != nil {
		return nil, nil, fmt.Errorf("health: %w", err)
	}
	rrep.Inputs = rep.Inputs
	for _, a := range areas {
		if a.level >= 0 && a.level < len(rrep.Records) {
			rrep.Records[a.level]++
		}
	}
	l.lk = l.lk.usedOnly()
	l.areas = areas
	l.meta.Sources = sourcesOf(ds, rep.Inputs)
	l.meta.Inputs = rep.Inputs
	if opts.OSMPath != "" {
		if l.density, err = buildGrid(opts.OSMPath, cfg); err != nil {
			return nil, nil, err
		}
		l.areaDensity = areaDensities(l.density, areas, l.polys, opts.Areas)
	}
	if err := l.index(); err != nil {
		return nil, nil, err
	}
	return l, rrep, nil
}

// readInputs reads every input (totals last: they take the date of
// another input) into l.rows and l.polys.
func (l *Layer) readInputs(ds *datasetConfig, src *inputSource, rep *Report) error {
	order := make([]int, 0, len(ds.Inputs))
	for i, in := range ds.Inputs {
		if in.Layout != layoutTotals {
			order = append(order, i)
		}
	}
	for i, in := range ds.Inputs {
		if in.Layout == layoutTotals {
			order = append(order, i)
		}
	}
	lastOf := map[string]day{}
	reports := make([]*InputReport, len(ds.Inputs))
	for _, i := range order {
		in := &ds.Inputs[i]
		dateOf := noDay
		if in.Layout == layoutTotals {
			var ok bool
			if dateOf, ok = lastOf[in.DateOf]; !ok {
				return fmt.Errorf("health: input %s: its date_of input %s was not read", in.Name, in.DateOf)
			}
		}
		rows, polys, where, err := src.read(in, dateOf)
		if err != nil {
			return err
		}
		if where == "" {
			continue // an optional input not given
		}
		ir := &InputReport{Name: in.Name, Source: in.Source, File: where, Rows: len(rows) + len(polys)}
		first, last := noDay, noDay
		for _, r := range rows {
			if len(r.s.vals) == 0 {
				continue
			}
			if first == noDay || r.s.start < first {
				first = r.s.start
			}
			last = max(last, r.s.last())
		}
		ir.First, ir.Last = first.String(), last.String()
		lastOf[in.Name] = last
		reports[i] = ir
		l.rows = append(l.rows, rows...)
		l.polys = append(l.polys, polys...)
	}
	for _, r := range reports {
		if r != nil {
			rep.Inputs = append(rep.Inputs, *r)
		}
	}
	return nil
}

// sourcesOf returns the sources of the inputs read, by name, each
// versioned by the last date of its data.
func sourcesOf(ds *datasetConfig, inputs []InputReport) []SourceInfo {
	byName := map[string]*SourceInfo{}
	for _, in := range inputs {
		s := byName[in.Source]
		if s == nil {
			src := ds.Sources[in.Source]
			s = &SourceInfo{Name: in.Source, Attribution: src.Attribution, Licence: src.Licence, Redistributable: src.Redistributable}
			byName[in.Source] = s
		}
		if in.Last > s.Version {
			s.Version = in.Last
		}
	}
	out := make([]SourceInfo, 0, len(byName))
	for _, k := range sortedKeys(byName) {
		out = append(out, *byName[k])
	}
	return out
}

// areaDensities returns the business density of every area with a polygon
// or a geometry in extra that lies inside the grid's extract.
func areaDensities(g *grid, areas []*area, polys []polygon, extra map[string]orb.MultiPolygon) map[string]float64 {
	out := map[string]float64{}
	for _, a := range areas {
		geom, ok := extra[a.id]
		if !ok && a.poly >= 0 {
			geom, ok = polys[a.poly].geom, true
		}
		if !ok {
			continue
		}
		if d, ok := g.densityOfArea(geom); ok {
			out[a.id] = d
		}
	}
	return out
}

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

// read returns an input's rows or polygons and where they came from ("" when
// the input is optional and not given, or absent from the snapshot).
func (s *inputSource) read(in *inputConfig, dateOf day) ([]rawRow, []polygon, string, error) {
	optional := !s.redistributable(in)
	p := s.path(in.Name, in.File, optional)
	if p == "" {
		if optional || s.snap == nil {
			return nil, nil, "", nil
		}
		rows, polys := s.snap.inputData(in.Name)
		if len(rows) == 0 && len(polys) == 0 {
			return nil, nil, "", nil
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
	if _, given := s.opts.Files[in.Name]; given {
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

// inputByName returns the layer's configured input of that name.
func (l *Layer) inputByName(name string) (*inputConfig, bool) {
	if l.ds == nil {
		return nil, false
	}
	i, ok := l.ds.byName[name]
	if !ok {
		return nil, false
	}
	return &l.ds.Inputs[i], true
}
