package covid

import (
	_ "embed"
	"sync"
)

// SnapshotFile is the committed snapshot's file name in this package's
// directory, written by `go generate ./geo/covid`.
const SnapshotFile = "covid.bin"

// snapshotData is the committed snapshot: the COVID-19 data set built from
// the JHU and NYC files only (never NYT's, which may not be shipped), in
// the layer file format, without a density grid.
//
//go:embed covid.bin
var snapshotData []byte

var snapshot = sync.OnceValues(func() (*Layer, error) { return parseLayer(snapshotData) })

// Snapshot returns the layer of the committed snapshot (decoded once, then
// shared: it is read-only). It holds the COVID-19 case data of JHU CSSE
// and NYC DOHMH and no business density.
func Snapshot() (*Layer, error) { return snapshot() }
