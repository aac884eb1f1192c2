package covid

import (
	"testing"
	"time"

	"github.com/paulmach/orb"
	"github.com/paulmach/orb/maptile"

	"github.com/geosvc/geosvc/geo/osmfile/extracts"
)

// BenchmarkBuild: the health layer from the shared CSVs (JHU + NYC),
// reading and parsing every file, resolving and indexing.
func BenchmarkBuild(b *testing.B) {
	dir := covidDir(b)
	for b.Loop() {
		if _, _, err := Build(BuildOptions{DataDir: dir}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkBuildWithNYT adds NYT's 62,000-line state series.
func BenchmarkBuildWithNYT(b *testing.B) {
	dir := covidDir(b)
	nyt := covidFile(b, "nyt/us-states.csv")
	for b.Loop() {
		if _, _, err := Build(BuildOptions{DataDir: dir, Files: map[string]string{"nyt-states": nyt}}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSnapshotDecode: decoding and resolving the embedded snapshot
// (what a server without a bundle pays once).
func BenchmarkSnapshotDecode(b *testing.B) {
	for b.Loop() {
		if _, err := parseLayer(snapshotData); err != nil {
			b.Fatal(err)
		}
	}
}

func snapshotLayer(b *testing.B) *Layer {
	b.Helper()
	l, err := Snapshot()
	if err != nil {
		b.Fatal(err)
	}
	return l
}

// BenchmarkRecordsUSCounties: country2data for USA admin2 (3,222 records).
func BenchmarkRecordsUSCounties(b *testing.B) {
	l := snapshotLayer(b)
	if n := len(l.Records("USA", 2, time.Time{})); n < 3000 {
		b.Fatalf("%d counties", n)
	}
	for b.Loop() {
		l.Records("USA", 2, time.Time{})
	}
}

// BenchmarkRecordsUSCountiesAsOf: the same on a past date.
func BenchmarkRecordsUSCountiesAsOf(b *testing.B) {
	l := snapshotLayer(b)
	d := date(2020, 6, 30)
	for b.Loop() {
		l.Records("USA", 2, d)
	}
}

// BenchmarkRecord: one record by id.
func BenchmarkRecord(b *testing.B) {
	l := snapshotLayer(b)
	for b.Loop() {
		if _, ok := l.Record("USA|10|10001", time.Time{}); !ok {
			b.Fatal("no Kent County")
		}
	}
}

// BenchmarkZIPAreaAt: the NYC ZIP area at a point (177 polygons).
func BenchmarkZIPAreaAt(b *testing.B) {
	l := snapshotLayer(b)
	p := orb.Point{-73.9971, 40.7507}
	for b.Loop() {
		if _, ok := l.ZIPAreaAt(p); !ok {
			b.Fatal("no ZIP area")
		}
	}
}

// BenchmarkDensityAt: the business density of a z16 tile of the Delaware
// grid (two binary searches).
func BenchmarkDensityAt(b *testing.B) {
	l := delaware(b)
	t := doverTile()
	for b.Loop() {
		if _, ok := l.DensityAt(t); !ok {
			b.Fatal("no density")
		}
	}
}

// BenchmarkDensityOfArea: businesses inside a polygon (a z14 tile around
// Dover) per km².
func BenchmarkDensityOfArea(b *testing.B) {
	l := delaware(b)
	mp := orb.MultiPolygon{maptile.At(orb.Point{-75.5244, 39.1582}, 14).Bound().ToPolygon()}
	for b.Loop() {
		if _, ok := l.DensityOfArea(mp); !ok {
			b.Fatal("no density")
		}
	}
}

// BenchmarkBuildGrid: the density grid from the Delaware extract (two
// passes over the 7.8 MB PBF).
func BenchmarkBuildGrid(b *testing.B) {
	path := extracts.Require(b, "delaware")
	cfg, err := parseConfig(nil)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := buildGrid(path, cfg); err != nil {
			b.Fatal(err)
		}
	}
}
