package boundary

import (
	"fmt"
	"path/filepath"

	"github.com/geosvc/geosvc/geo/spatial"
	"github.com/geosvc/geosvc/internal/binfmt"
)

// File format of boundaries.bin: a binfmt container with this magic and
// version; sections "areas" (JSON: the areas in index order, without
// geometry), "categories" (JSON), "meta" (JSON), the spatial index under
// "ix.", and the world base layer (World) the bundle was built with:
// "base.areas" (JSON) and its spatial index under "base.ix.", so that a
// server uses it from the mapped file instead of building it on the heap.
var fileMagic = [8]byte{'G', 'S', 'B', 'O', 'U', 'N', 'D', 0}

// FileVersion is the version of the boundaries.bin format and content: 2
// gives areas of a cut-away country the country of their time zone, so
// bundles built before are rebuilt; 3 holds the world base layer.
const FileVersion = 3

// meta is the layer's provenance.
type meta struct {
	Source string `json:"source"`
	Report Report `json:"report"`
}

// write writes areas (in index order), cats and ix to dir/FileName.
func write(dir string, areas []*Area, cats []Category, ix *spatial.Index, m meta) error {
	w := binfmt.NewWriter()
	w.AddJSON("areas", areas)
	w.AddJSON("categories", cats)
	w.AddJSON("meta", m)
	ix.Write(w, "ix.")
	base, err := World()
	if err != nil {
		return err
	}
	w.AddJSON("base.areas", base.areas)
	base.ix.Write(w, "base.ix.")
	return w.WriteFile(filepath.Join(dir, FileName), fileMagic, FileVersion)
}

func load(dir string, deferred bool) (*Layer, error) {
	open := binfmt.Open
	if deferred {
		open = binfmt.OpenDeferred
	}
	f, err := open(filepath.Join(dir, FileName), fileMagic, FileVersion)
	if err != nil {
		return nil, fmt.Errorf("boundary: %w", err)
	}
	l := &Layer{byID: map[int64]*Area{}}
	if err := f.JSON("areas", &l.areas); err != nil {
		return nil, fmt.Errorf("boundary: %w", err)
	}
	if err := f.JSON("categories", &l.cats); err != nil {
		return nil, fmt.Errorf("boundary: %w", err)
	}
	if l.ix, err = spatial.Read(f, "ix."); err != nil {
		return nil, fmt.Errorf("boundary: %w", err)
	}
	if l.ix.Len() != len(l.areas) {
		return nil, fmt.Errorf("boundary: %s: %d areas but %d indexed", FileName, len(l.areas), l.ix.Len())
	}
	l.init()
	base := &Layer{}
	if err := f.JSON("base.areas", &base.areas); err != nil {
		return nil, fmt.Errorf("boundary: %w", err)
	}
	if base.ix, err = spatial.Read(f, "base.ix."); err != nil {
		return nil, fmt.Errorf("boundary: base layer: %w", err)
	}
	if base.ix.Len() != len(base.areas) {
		return nil, fmt.Errorf("boundary: %s: %d base areas but %d indexed", FileName, len(base.areas), base.ix.Len())
	}
	for _, a := range base.areas {
		a.Source = SourceNaturalEarth
		if a.ID >= BaseUSID {
			a.Source = SourceCensus
		}
	}
	base.init()
	out := l.WithBase(base)
	if deferred {
		out.deferred = binfmt.Defer(f, nil)
	}
	return out, nil
}

// init links the areas to the layer.
func (l *Layer) init() {
	l.byID = make(map[int64]*Area, len(l.areas))
	for i, a := range l.areas {
		a.index = int32(i)
		a.layer = l
		l.byID[a.ID] = a
	}
	l.setSources()
}
