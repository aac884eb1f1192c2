package covid

import (
	"encoding/binary"
	"fmt"
	"math"
	"path/filepath"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/internal/binfmt"
)

// FileName is the layer's file in the data bundle.
const FileName = "health.bin"

// FileVersion is the version of the layer file format (bundle files and
// the committed snapshot alike). 2: the density grid's quadkeys and
// medians are stored, so that a load uses the grid in place.
const FileVersion = 2

var fileMagic = [8]byte{'G', 'E', 'O', 'H', 'L', 'T', 'H', 0}

// Sections of the layer file. The file holds the inputs as parsed (rows
// with their keys and series, polygons, the lookup entries used) and the
// configuration; loading resolves them into records again, with the same
// code Build uses.
const (
	secMeta        = "meta"         // JSON fileMeta
	secConfig      = "config"       // uint8: the health.yaml the layer was built with
	secPlaceKey    = "lookup.place" // strings: "Country" or "Country/Province"
	secPlaceISO3   = "lookup.iso3"  // strings, per place
	secPlacePop    = "lookup.pop"   // float64, per place (NaN unknown)
	secStateName   = "lookup.state" // strings: US state names
	secStateFIPS   = "lookup.sfips" // strings, per state
	secFIPS        = "lookup.fips"  // strings: FIPS codes with a population
	secFIPSPop     = "lookup.fpop"  // float64, per FIPS code
	secRowInfo     = "row.info"     // uint32 x4 per row: input, measure, line, length
	secRowGrid     = "row.grid"     // int32 x3 per row: start day, step, scale
	secKeys        = "keys"         // strings: distinct row keys, "role=value" joined by \x1f
	secRowKeys     = "row.keys"     // uint32 per row: index into keys
	secRowPop      = "row.pop"      // float64 per row (NaN none)
	secRowOffset   = "row.offset"   // uint64, rows+1: offsets into row.data
	secRowData     = "row.data"     // uint8: values, zigzag varint deltas
	secPolyCode    = "poly.code"    // strings, per polygon
	secPolyInput   = "poly.input"   // uint32 per polygon: its input's index in meta
	secPolyParts   = "poly.parts"   // uint32, polygons+1: offsets into poly.rings (per outer polygon)
	secPolyRings   = "poly.rings"   // uint32, outer polygons+1: offsets into poly.points (per ring)
	secPolyPoints  = "poly.points"  // uint32, rings+1: offsets into the points
	secPolyCoords  = "poly.coords"  // uint8: lon, lat in 1e-6 degree, zigzag varint deltas
	secGridBounds  = "grid.bounds"  // float64 x4: min lon, min lat, max lon, max lat
	secGridLon     = "grid.lon"     // int32, 1e-7 degree, in quadkey order
	secGridLat     = "grid.lat"     // int32
	secGridKeys    = "grid.keys"    // uint64: the z20 quadkeys of the positions, sorted
	secGridMedians = "grid.medians" // float64, per zoom 0..20: the median tile density
	secAreaDensID  = "density.id"   // strings: record ids with a density
	secAreaDensVal = "density.val"  // float64
)

// keySep joins a row's keys in secRowKeys.
const keySep = "\x1f"

// WriteFile writes the layer to dir/FileName.
func (l *Layer) WriteFile(dir string) error { return l.Save(filepath.Join(dir, FileName)) }

// Save writes the layer to the file at path (atomically). The bytes
// depend only on the layer's content: the same inputs give the same file.
func (l *Layer) Save(path string) error {
	w, err := l.encode()
	if err != nil {
		return err
	}
	if err := w.WriteFile(path, fileMagic, FileVersion); err != nil {
		return fmt.Errorf("health: %w", err)
	}
	return nil
}

// encode lays the layer out as binfmt sections.
func (l *Layer) encode() (*binfmt.Writer, error) {
	w := binfmt.NewWriter()
	w.AddJSON(secMeta, l.meta)
	w.AddUint8s(secConfig, l.cfgYAML)

	pk := sortedKeys(l.lk.places)
	iso := make([]string, len(pk))
	pp := make([]float64, len(pk))
	for i, k := range pk {
		iso[i], pp[i] = l.lk.places[k].iso3, l.lk.places[k].population
	}
	w.AddStrings(secPlaceKey, pk)
	w.AddStrings(secPlaceISO3, iso)
	w.AddFloat64s(secPlacePop, pp)
	sn := sortedKeys(l.lk.stateFIPS)
	sf := make([]string, len(sn))
	for i, k := range sn {
		sf[i] = l.lk.stateFIPS[k]
	}
	w.AddStrings(secStateName, sn)
	w.AddStrings(secStateFIPS, sf)
	fk := sortedKeys(l.lk.fipsPop)
	fp := make([]float64, len(fk))
	for i, k := range fk {
		fp[i] = l.lk.fipsPop[k]
	}
	w.AddStrings(secFIPS, fk)
	w.AddFloat64s(secFIPSPop, fp)

	inputIndex := map[string]uint32{}
	for i, in := range l.meta.Inputs {
		inputIndex[in.Name] = uint32(i)
	}
	info := make([]uint32, 0, 4*len(l.rows))
	grid := make([]int32, 0, 3*len(l.rows))
	var keys []string
	keyIndex := map[string]uint32{}
	rowKeys := make([]uint32, len(l.rows))
	pops := make([]float64, len(l.rows))
	offs := make([]uint64, 1, len(l.rows)+1)
	var data []byte
	for i, r := range l.rows {
		in, ok := inputIndex[r.input]
		if !ok {
			return nil, fmt.Errorf("health: row of input %s not in the layer's inputs", r.input)
		}
		info = append(info, in, uint32(measureIndex(r.measure)), uint32(r.line), uint32(len(r.s.vals)))
		grid = append(grid, int32(r.s.start), r.s.step, r.s.scale)
		k := encodeKeys(r.keys)
		ki, ok := keyIndex[k]
		if !ok {
			ki = uint32(len(keys))
			keyIndex[k] = ki
			keys = append(keys, k)
		}
		rowKeys[i] = ki
		pops[i] = r.population
		data = appendValues(data, r.s.vals)
		offs = append(offs, uint64(len(data)))
	}
	w.AddUint32s(secRowInfo, info)
	w.AddInt32s(secRowGrid, grid)
	w.AddStrings(secKeys, keys)
	w.AddUint32s(secRowKeys, rowKeys)
	w.AddFloat64s(secRowPop, pops)
	w.AddUint64s(secRowOffset, offs)
	w.AddUint8s(secRowData, data)

	codes := make([]string, len(l.polys))
	polyInputs := make([]uint32, len(l.polys))
	parts := []uint32{0}
	rings := []uint32{0}
	points := []uint32{0}
	var coords []byte
	var plon, plat int64
	for i, p := range l.polys {
		codes[i] = p.code
		in, ok := inputIndex[p.input]
		if !ok {
			return nil, fmt.Errorf("health: polygon of input %s not in the layer's inputs", p.input)
		}
		polyInputs[i] = in
		for _, poly := range p.geom {
			for _, ring := range poly {
				for _, pt := range ring {
					lon, lat := int64(math.Round(pt[0]*coordScale)), int64(math.Round(pt[1]*coordScale))
					coords = binary.AppendUvarint(coords, zigzag(lon-plon))
					coords = binary.AppendUvarint(coords, zigzag(lat-plat))
					plon, plat = lon, lat
				}
				points = append(points, points[len(points)-1]+uint32(len(ring)))
			}
			rings = append(rings, uint32(len(points)-1))
		}
		parts = append(parts, uint32(len(rings)-1))
	}
	w.AddStrings(secPolyCode, codes)
	w.AddUint32s(secPolyInput, polyInputs)
	w.AddUint32s(secPolyParts, parts)
	w.AddUint32s(secPolyRings, rings)
	w.AddUint32s(secPolyPoints, points)
	w.AddUint8s(secPolyCoords, coords)

	if g := l.density; g != nil {
		b := g.bounds
		w.AddFloat64s(secGridBounds, []float64{b.Min[0], b.Min[1], b.Max[0], b.Max[1]})
		w.AddInt32s(secGridLon, g.lon)
		w.AddInt32s(secGridLat, g.lat)
		w.AddUint64s(secGridKeys, g.keys)
		w.AddFloat64s(secGridMedians, g.tileMedian[:])
	}
	if len(l.areaDensity) > 0 {
		ids := sortedKeys(l.areaDensity)
		vals := make([]float64, len(ids))
		for i, id := range ids {
			vals[i] = l.areaDensity[id]
		}
		w.AddStrings(secAreaDensID, ids)
		w.AddFloat64s(secAreaDensVal, vals)
	}
	return w, nil
}

// Load reads the layer from dir/FileName and resolves it into records.
func Load(dir string) (*Layer, error) {
	f, err := binfmt.Open(filepath.Join(dir, FileName), fileMagic, FileVersion)
	if err != nil {
		return nil, fmt.Errorf("health: %w", err)
	}
	l, err := decode(f)
	if err != nil {
		return nil, fmt.Errorf("health: %s: %w", FileName, err)
	}
	return l, nil
}

// parseLayer decodes a layer file held in memory (the snapshot).
func parseLayer(data []byte) (*Layer, error) {
	f, err := binfmt.Parse(data, fileMagic, FileVersion)
	if err != nil {
		return nil, fmt.Errorf("health: %w", err)
	}
	return decode(f)
}

// decode reads every section and compiles the layer.
func decode(f *binfmt.File) (*Layer, error) {
	l := &Layer{}
	var errs []error
	check := func(err error) {
		if err != nil {
			errs = append(errs, err)
		}
	}
	strs := func(name string) []string {
		v, err := f.Strings(name)
		check(err)
		return v
	}
	floats := func(name string) []float64 {
		v, err := f.Float64s(name)
		check(err)
		return v
	}
	u32s := func(name string) []uint32 {
		v, err := f.Uint32s(name)
		check(err)
		return v
	}
	bytesOf := func(name string) []byte {
		v, err := f.Uint8s(name)
		check(err)
		return v
	}
	check(f.JSON(secMeta, &l.meta))
	l.cfgYAML = append([]byte(nil), bytesOf(secConfig)...)
	pk, iso, pp := strs(secPlaceKey), strs(secPlaceISO3), floats(secPlacePop)
	sn, sf := strs(secStateName), strs(secStateFIPS)
	fk, fp := strs(secFIPS), floats(secFIPSPop)
	info := u32s(secRowInfo)
	grid, err := f.Int32s(secRowGrid)
	check(err)
	keys, rowKeys, pops := strs(secKeys), u32s(secRowKeys), floats(secRowPop)
	offs, err := f.Uint64s(secRowOffset)
	check(err)
	data := bytesOf(secRowData)
	codes, polyInputs := strs(secPolyCode), u32s(secPolyInput)
	parts, rings, points := u32s(secPolyParts), u32s(secPolyRings), u32s(secPolyPoints)
	coords := bytesOf(secPolyCoords)
	if len(errs) > 0 {
		return nil, errs[0]
	}

	if len(iso) != len(pk) || len(pp) != len(pk) || len(sf) != len(sn) || len(fp) != len(fk) {
		return nil, fmt.Errorf("%w: lookup sections differ in length", binfmt.ErrCorrupt)
	}
	l.lk = &lookup{places: make(map[string]lookupRow, len(pk)), stateFIPS: make(map[string]string, len(sn)), fipsPop: make(map[string]float64, len(fk))}
	for i, k := range pk {
		l.lk.places[k] = lookupRow{iso3: iso[i], population: pp[i]}
	}
	for i, k := range sn {
		l.lk.stateFIPS[k] = sf[i]
	}
	for i, k := range fk {
		l.lk.fipsPop[k] = fp[i]
	}

	n := len(rowKeys)
	if len(info) != 4*n || len(grid) != 3*n || len(pops) != n || len(offs) != n+1 {
		return nil, fmt.Errorf("%w: row sections differ in length", binfmt.ErrCorrupt)
	}
	l.rows = make([]rawRow, n)
	keyMaps := make([]map[string]string, len(keys)) // decoded once, shared (read-only)
	for i := range l.rows {
		in, m, line, length := info[4*i], info[4*i+1], info[4*i+2], info[4*i+3]
		if int(in) >= len(l.meta.Inputs) || int(m) >= numMeasures || int(rowKeys[i]) >= len(keys) || offs[i] > offs[i+1] || offs[i+1] > uint64(len(data)) {
			return nil, fmt.Errorf("%w: row %d", binfmt.ErrCorrupt, i)
		}
		step, scale := grid[3*i+1], grid[3*i+2]
		if step < 1 || scale < 1 {
			return nil, fmt.Errorf("%w: row %d: step %d, scale %d", binfmt.ErrCorrupt, i, step, scale)
		}
		ki := rowKeys[i]
		if keyMaps[ki] == nil {
			keyMaps[ki] = decodeKeys(keys[ki])
		}
		vals, err := decodeValues(data[offs[i]:offs[i+1]], int(length))
		if err != nil {
			return nil, fmt.Errorf("row %d: %w", i, err)
		}
		l.rows[i] = rawRow{
			input: l.meta.Inputs[in].Name, source: l.meta.Inputs[in].Source, measure: measureNames[m],
			keys: keyMaps[ki], line: int(line), population: pops[i],
			s: &series{start: day(grid[3*i]), step: step, scale: scale, vals: vals},
		}
	}
	if len(polyInputs) != len(codes) {
		return nil, fmt.Errorf("%w: polygon sections", binfmt.ErrCorrupt)
	}
	inputNames := make([]string, len(polyInputs))
	for i, in := range polyInputs {
		if int(in) >= len(l.meta.Inputs) {
			return nil, fmt.Errorf("%w: polygon %d", binfmt.ErrCorrupt, i)
		}
		inputNames[i] = l.meta.Inputs[in].Name
	}
	if l.polys, err = decodePolygons(inputNames, codes, parts, rings, points, coords); err != nil {
		return nil, err
	}
	if f.Has(secGridBounds) {
		b := floats(secGridBounds)
		lon, err1 := f.Int32s(secGridLon)
		lat, err2 := f.Int32s(secGridLat)
		keys, err3 := f.Uint64s(secGridKeys)
		medians := floats(secGridMedians)
		if len(errs) > 0 || err1 != nil || err2 != nil || err3 != nil || len(b) != 4 {
			return nil, fmt.Errorf("%w: density grid", binfmt.ErrCorrupt)
		}
		if l.density, err = gridOf(lon, lat, keys, medians, orb.Bound{Min: orb.Point{b[0], b[1]}, Max: orb.Point{b[2], b[3]}}); err != nil {
			return nil, fmt.Errorf("%w: %v", binfmt.ErrCorrupt, err)
		}
	}
	if f.Has(secAreaDensID) {
		ids, vals := strs(secAreaDensID), floats(secAreaDensVal)
		if len(errs) > 0 || len(ids) != len(vals) {
			return nil, fmt.Errorf("%w: area densities", binfmt.ErrCorrupt)
		}
		l.areaDensity = make(map[string]float64, len(ids))
		for i, id := range ids {
			l.areaDensity[id] = vals[i]
		}
	}
	if err := l.compile(); err != nil {
		return nil, err
	}
	return l, nil
}
