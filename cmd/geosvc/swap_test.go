package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/geosvc/geosvc/bundle"
)

// secondBuild returns another build of the bundle in dir: links to its
// files and a manifest with another build time (another bundle id, the
// same data).
func secondBuild(t *testing.T, dir string) string {
	t.Helper()
	b := filepath.Join(t.TempDir(), "second")
	if err := os.Mkdir(b, 0o755); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.Name() == bundle.ManifestFile {
			continue
		}
		abs, _ := filepath.Abs(filepath.Join(dir, e.Name()))
		if err := os.Symlink(abs, filepath.Join(b, e.Name())); err != nil {
			t.Fatal(err)
		}
	}
	m, err := bundle.Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	m.BuiltAt = m.BuiltAt.Add(-time.Hour)
	if err := bundle.Write(b, m); err != nil {
		t.Fatal(err)
	}
	return b
}

// repoint makes link point at target atomically, as a deployment
// publishes a build.
func repoint(t *testing.T, link, target string) {
	t.Helper()
	tmp := link + ".tmp"
	os.Remove(tmp)
	if err := os.Symlink(target, tmp); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, link); err != nil {
		t.Fatal(err)
	}
}

// TestBundleSwapWithoutRestart: serve on a symlink swaps to the build the
// link is repointed at (its id in /v1/info), without a restart; a matrix
// job records the bundle it was ordered on and its fetch answers it,
// after a swap too.
func TestBundleSwapWithoutRestart(t *testing.T) {
	const key = "gs_swap_test_key_0123456789abcdefghijkl"
	a, _ := filepath.Abs(roundaboutBundle(t))
	b := secondBuild(t, a)
	link := filepath.Join(t.TempDir(), "data")
	repoint(t, link, a)
	base := inProcessServersOn(t, link, key, "", "--data-reload", "100ms", "--inline-cells", "0").api
	info := func() string {
		var v struct {
			Data struct {
				ID string `json:"id"`
			} `json:"data"`
		}
		apiCall(t, "GET", base+"/v1/info", key, nil, &v)
		return v.Data.ID
	}
	order := func() string {
		var o struct {
			UUID string `json:"uuid"`
		}
		body := map[string]any{"origin_addresses": []string{"10.002,0.000"}, "destination_addresses": []string{"10.004,0.002"}}
		if st, _ := apiCall(t, "POST", base+"/tdmv1/order", key, body, &o); st != 200 {
			t.Fatalf("order: %d", st)
		}
		return o.UUID
	}
	fetch := func(id string) (status, bundleID string) {
		var r struct {
			Status string `json:"status"`
			Bundle string `json:"bundle"`
		}
		for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
			apiCall(t, "POST", base+"/tdmv1/fetch", key, map[string]string{"uuid": id}, &r)
			if r.Status == "Finished" || r.Status == "Failed" || time.Now().After(deadline) {
				return r.Status, r.Bundle
			}
		}
	}
	idA := info()
	jobA := order()
	repoint(t, link, b)
	var idB string
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if idB = info(); idB != idA {
			break
		}
	}
	if len(idA) != 12 || len(idB) != 12 || idA == idB {
		t.Fatalf("bundle ids %q then %q: no swap", idA, idB)
	}
	jobB := order()
	if st, got := fetch(jobA); st != "Finished" || got != idA {
		t.Errorf("job ordered before the swap: %s on %q, want Finished on %q", st, got, idA)
	}
	if st, got := fetch(jobB); st != "Finished" || got != idB {
		t.Errorf("job ordered after the swap: %s on %q, want Finished on %q", st, got, idB)
	}
}

// TestCorruptBundleStopsServe: a bundle with a flipped byte in the body
// of its routing graph or of a large layer (size and header intact)
// starts, and the background verification stops the process with the
// file's name (the layers open without their whole-file checks, so that
// start-up does not grow with the bundle).
func TestCorruptBundleStopsServe(t *testing.T) {
	a, _ := filepath.Abs(roundaboutBundle(t))
	for _, file := range []string{"routing.cch", "boundaries.bin", "zip4.bin", "geocode.bin", "mapdata.bin"} {
		t.Run(file, func(t *testing.T) {
			bad := filepath.Join(t.TempDir(), "bad")
			if err := os.Mkdir(bad, 0o755); err != nil {
				t.Fatal(err)
			}
			entries, _ := os.ReadDir(a)
			found := false
			for _, e := range entries {
				data, err := os.ReadFile(filepath.Join(a, e.Name()))
				if err != nil {
					t.Fatal(err)
				}
				if e.Name() == file {
					data[len(data)-64] ^= 0x20
					found = true
				}
				if err := os.WriteFile(filepath.Join(bad, e.Name()), data, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if !found {
				t.Fatalf("the bundle has no %s", file)
			}
			t.Setenv("REDIS_URL", "")
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			err := serve(ctx, serveRole, []string{"--data", bad, "--addr", "127.0.0.1:0", "--admin-addr", "", "--log-level", "error"}, nil)
			if err == nil || !strings.Contains(err.Error(), "corrupt") || !strings.Contains(err.Error(), file) {
				t.Fatalf("serve on a bundle with a corrupt %s: %v", file, err)
			}
		})
	}
}
