package main

import (
	"errors"
	"fmt"
	"io/fs"

	"github.com/geosvc/geosvc/cmd/geosvc/internal/bundle"
)

// readManifest reads the bundle manifest in dir with a hint when it is
// missing.
func readManifest(dir string) (bundle.Manifest, error) {
	m, err := bundle.Read(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return m, fmt.Errorf("no data bundle in %s: build one with `make data` or `geosvc build --osm FILE.osm.pbf --out %s`", dir, dir)
	}
	return m, err
}
