package bundle

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"
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
