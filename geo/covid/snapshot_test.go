package covid

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/geosvc/geosvc/internal/binfmt"
)

// layerJSON renders every record of a layer (latest and on one past date)
// and its metadata, to compare layers.
func layerJSON(t *testing.T, l *Layer) []byte {
	t.Helper()
	var out []any
	for _, a := range l.areas {
		r1, _ := l.Record(a.id, time.Time{})
		r2, _ := l.Record(a.id, date(2020, 6, 30))
		out = append(out, r1, r2, r1.Population, ptr(r1.Incidence))
	}
	out = append(out, l.Countries(), l.Sources(), l.Timestamp())
	b, err := json.Marshal(out)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestSnapshotIsFresh: the committed covid.bin is exactly what the
// generator writes from the shared CSVs; when this fails after a change
// of the code, the config or the files, run `go generate ./geo/covid`.
func TestSnapshotIsFresh(t *testing.T) {
	l, _ := buildFromCSV(t)
	w, err := l.encode()
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if _, err := w.WriteTo(&buf, fileMagic, FileVersion); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(buf.Bytes(), snapshotData) {
		t.Fatalf("covid.bin (%d bytes) differs from a fresh build (%d bytes): run go generate ./geo/covid", len(snapshotData), buf.Len())
	}
	snap, err := Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(layerJSON(t, snap), layerJSON(t, l)) {
		t.Error("the snapshot's records differ from a fresh build's")
	}
	for _, s := range snap.Sources() {
		if !s.Redistributable {
			t.Errorf("snapshot holds data of %s (%s)", s.Name, s.Licence)
		}
	}
	want := []string{
		"COVID-19 Data Repository by the Center for Systems Science and Engineering (CSSE) at Johns Hopkins University, CC BY 4.0",
		"NYC DOHMH",
	}
	if got := snap.Attribution(); len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("attribution %q, want %q", got, want)
	}
	if got := snap.Sources(); got[0].Version != "2023-03-09" || got[1].Version != "2025-10-11" {
		t.Errorf("source versions %+v", got)
	}
}

// TestSnapshotStandsAlone needs no shared file: the embedded snapshot
// decodes and answers.
func TestSnapshotStandsAlone(t *testing.T) {
	snap, err := Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	r, ok := snap.Record("USA|10|10001", time.Time{})
	if !ok || r.TotalCases == nil || *r.TotalCases != 2503 {
		t.Errorf("Kent County from the snapshot: %+v", r)
	}
	if len(snap.Countries()) < 200 || len(snap.Records("USA", 2, time.Time{})) < 3000 {
		t.Errorf("%d countries, %d US counties", len(snap.Countries()), len(snap.Records("USA", 2, time.Time{})))
	}
	if len(snapshotData) > 3<<20 {
		t.Errorf("covid.bin is %d bytes, want a few MB at most", len(snapshotData))
	}
}

// TestBundleRoundTrip: a layer written into a bundle and loaded back
// answers the same, NYT included.
func TestBundleRoundTrip(t *testing.T) {
	l, _ := buildWithNYT(t)
	dir := t.TempDir()
	if err := l.WriteFile(dir); err != nil {
		t.Fatal(err)
	}
	back, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(layerJSON(t, back), layerJSON(t, l)) {
		t.Error("the loaded layer differs from the built one")
	}
	// The same content writes the same bytes.
	dir2 := t.TempDir()
	if err := back.WriteFile(dir2); err != nil {
		t.Fatal(err)
	}
	a, _ := os.ReadFile(filepath.Join(dir, FileName))
	b, _ := os.ReadFile(filepath.Join(dir2, FileName))
	if !bytes.Equal(a, b) {
		t.Error("writing a loaded layer again gives other bytes")
	}
}

// TestBuildOnSnapshotWithNYT: without a data directory the inputs come
// from the snapshot, and NYT's file can still be added.
func TestBuildOnSnapshotWithNYT(t *testing.T) {
	nyt := covidFile(t, "nyt/us-states.csv")
	l, rep, err := Build(BuildOptions{Files: map[string]string{"nyt-states": nyt}})
	if err != nil {
		t.Fatal(err)
	}
	full, _ := buildWithNYT(t)
	if !bytes.Equal(layerJSON(t, l), layerJSON(t, full)) {
		t.Error("snapshot + NYT differs from a full build with NYT")
	}
	var fromSnap int
	for _, in := range rep.Inputs {
		if in.File == "snapshot" {
			fromSnap++
		}
	}
	if fromSnap != len(rep.Inputs)-1 {
		t.Errorf("inputs %+v: want all but NYT from the snapshot", rep.Inputs)
	}
}

func TestLoadErrors(t *testing.T) {
	dir := t.TempDir()
	if _, err := Load(dir); err == nil {
		t.Error("Load of an empty directory succeeded")
	}
	bad := append([]byte(nil), snapshotData...)
	bad[len(bad)/2] ^= 0xff
	if _, err := parseLayer(bad); !errors.Is(err, binfmt.ErrChecksum) {
		t.Errorf("corrupt snapshot: %v, want a checksum error", err)
	}
}
