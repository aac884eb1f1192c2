package covid

import (
	"fmt"

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
