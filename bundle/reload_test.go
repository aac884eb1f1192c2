package bundle

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/geosvc/geosvc/geo/osmfile/extracts"
)

// tinyRoot holds the bundles the package's tests build; TestMain
// removes it.
var tinyRoot string

func TestMain(m *testing.M) {
	code := m.Run()
	if tinyRoot != "" {
		os.RemoveAll(tinyRoot)
	}
	os.Exit(code)
}

// tinyBundles builds two bundles of routing's hand-written roundabout
// fixture (two builds: two ids) once for the package's tests.
var tinyBundles = sync.OnceValues(func() ([2]string, error) {
	var dirs [2]string
	root, err := os.MkdirTemp("", "geosvc-bundle-test-")
	if err != nil {
		return dirs, err
	}
	tinyRoot = root
	for i := range dirs {
		dirs[i] = filepath.Join(root, []string{"a", "b"}[i])
		if _, err := Build(context.Background(), Options{OSMPath: filepath.Join("..", "routing", "testdata", "roundabout.osm"), Out: dirs[i]}); err != nil {
			return dirs, err
		}
		time.Sleep(1100 * time.Millisecond) // another build time: another manifest
	}
	return dirs, nil
})

// TestReloaderSwaps: a Reloader on a symlink swaps when the link is
// repointed at another build, not when nothing changed; the bundle served
// before stays reachable by its id; a directory without a bundle leaves
// the served one in place.
func TestReloaderSwaps(t *testing.T) {
	dirs, err := tinyBundles()
	if err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(t.TempDir(), "data")
	if err := os.Symlink(dirs[0], link); err != nil {
		t.Fatal(err)
	}
	first, err := Open(link)
	if err != nil {
		t.Fatal(err)
	}
	cur := NewCurrent(first)
	var swaps []string
	r := &Reloader{Dir: link, Current: cur, Open: OpenRouting,
		Swapped: func(old, b *Bundle, _ time.Duration) { swaps = append(swaps, old.ID+">"+b.ID) }}
	if swapped, err := r.Check(); swapped || err != nil {
		t.Fatalf("unchanged bundle: swapped %v, %v", swapped, err)
	}
	// Repoint the link, as a deployment publishes a new build.
	tmp := link + ".tmp"
	if err := os.Symlink(dirs[1], tmp); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, link); err != nil {
		t.Fatal(err)
	}
	swapped, err := r.Check()
	if !swapped || err != nil {
		t.Fatalf("repointed link: swapped %v, %v", swapped, err)
	}
	second := cur.Load()
	if second.ID == first.ID || len(second.ID) != 12 || len(swaps) != 1 || swaps[0] != first.ID+">"+second.ID {
		t.Fatalf("ids %q then %q, swaps %v", first.ID, second.ID, swaps)
	}
	if cur.ByID(first.ID) != first || cur.ByID(second.ID) != second || cur.ByID("") != second || cur.ByID("000000000000") != nil {
		t.Fatal("ByID does not find the served bundles")
	}
	// A link to a directory without a bundle: the served one stays.
	empty := t.TempDir()
	if err := os.Symlink(empty, tmp); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, link); err != nil {
		t.Fatal(err)
	}
	if swapped, err := r.Check(); swapped || err == nil || cur.Load() != second {
		t.Fatalf("no bundle: swapped %v, %v", swapped, err)
	}
}

// TestCurrentKeepsRecent: a Current keeps the bundles served just before
// the current one reachable by id, the two newest.
func TestCurrentKeepsRecent(t *testing.T) {
	cur := &Current{}
	if cur.Load() != nil || cur.ByID("") != nil {
		t.Fatal("an empty Current holds a bundle")
	}
	bs := make([]*Bundle, 5)
	for i := range bs {
		bs[i] = &Bundle{ID: string(rune('a' + i))}
		cur.Store(bs[i])
	}
	for i, b := range bs {
		want := b
		if i < len(bs)-1-keepRecent {
			want = nil
		}
		if got := cur.ByID(b.ID); got != want {
			t.Errorf("ByID(%q) = %v, want %v", b.ID, got, want)
		}
	}
}

// TestFailedBuildKeepsTheBundle: a build from a truncated extract, or
// from a file that is no OSM file, ends with an error saying so and leaves
// the bundle already in the directory as it was (it still opens, with
// the same id) and nothing else behind.
func TestFailedBuildKeepsTheBundle(t *testing.T) {
	dirs, err := tinyBundles()
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	out := filepath.Join(root, "data")
	if err := os.CopyFS(out, os.DirFS(dirs[0])); err != nil {
		t.Fatal(err)
	}
	before, err := OpenRouting(out)
	if err != nil {
		t.Fatal(err)
	}
	osm, err := os.ReadFile(filepath.Join("..", "routing", "testdata", "roundabout.osm"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, file string
		data       []byte
		want       string
	}{
		{"truncated", "cut.osm", osm[:len(osm)/2], "cut.osm"},
		{"not OSM", "notes.osm.pbf", []byte("these are not the roads you are looking for"), "notes.osm.pbf is not an OpenStreetMap PBF file"},
		{"truncated PBF", "cut.osm.pbf", delawareHead(t), "cut.osm.pbf is truncated"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(root, tc.file)
			if err := os.WriteFile(p, tc.data, 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := Build(context.Background(), Options{OSMPath: p, Out: out})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("build: %v, want an error naming %q", err, tc.want)
			}
			after, err := OpenRouting(out)
			if err != nil || after.ID != before.ID {
				t.Fatalf("the bundle after a failed build: %v, id %q (was %q)", err, after.ID, before.ID)
			}
			entries, _ := os.ReadDir(root)
			for _, e := range entries {
				if strings.Contains(e.Name(), ".building-") {
					t.Errorf("left behind: %s", e.Name())
				}
			}
		})
	}
}

// delawareHead returns the first megabyte of the Delaware extract.
func delawareHead(t *testing.T) []byte {
	t.Helper()
	p, err := extracts.Path("delaware")
	extracts.Need(t, err)
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	b := make([]byte, 1<<20)
	if _, err := io.ReadFull(f, b); err != nil {
		t.Fatal(err)
	}
	return b
}

// FuzzBlobHeader: any bytes give a header or an error, never a panic, and
// a header's data size is positive and bounded.
func FuzzBlobHeader(f *testing.F) {
	f.Add([]byte{0x0a, 0x09, 'O', 'S', 'M', 'H', 'e', 'a', 'd', 'e', 'r', 0x18, 0x64})
	f.Add([]byte{0x0a, 0xff})
	f.Fuzz(func(t *testing.T, b []byte) {
		typ, size, err := blobHeader(b)
		if err == nil && (typ == "" || size <= 0 || size > 32<<20) {
			t.Fatalf("blobHeader(%x) = %q, %d", b, typ, size)
		}
	})
}
