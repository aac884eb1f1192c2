package world

import _ "embed"

// The layer, generated from the npm tarballs of world-atlas 2.0.2 and
// us-atlas 3.0.1 (npm pack world-atlas@2.0.2 us-atlas@3.0.1 in the
// repository root) and committed.
//go:generate go run ./internal/gen -world ../../world-atlas-2.0.2.tgz -us ../../us-atlas-3.0.1.tgz -out world.bin

// worldBin is world.bin.
//
//go:embed world.bin
var worldBin []byte
