package covid

// The committed snapshot covid.bin is built from the JHU and NYC files in
// shared/data/covid (never from NYT's, which may not be shipped). The
// generator is deterministic: the same files give the same bytes, and
// TestSnapshotIsFresh checks that covid.bin matches them.
//go:generate go run ./internal/gen -out covid.bin
