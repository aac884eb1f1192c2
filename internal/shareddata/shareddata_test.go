package shareddata

import (
	"os"
	"path/filepath"
	"testing"
)

func TestDir(t *testing.T) {
	t.Run("override", func(t *testing.T) {
		t.Setenv(EnvVar, "/data/x")
		if got := Path("covid/nyt/us-states.csv"); got != "/data/x/covid/nyt/us-states.csv" {
			t.Errorf("Path = %q", got)
		}
	})
	t.Run("beside the repository", func(t *testing.T) {
		t.Setenv(EnvVar, "")
		d := Dir()
		if filepath.Base(d) != "data" || filepath.Base(filepath.Dir(d)) != "shared" {
			t.Errorf("Dir = %q, want .../shared/data", d)
		}
		// The repository's go.mod is two levels up from this package and
		// shared/ sits beside the repository.
		if _, err := os.Stat(filepath.Join(d, "..", "..", filepath.Base(repoDir()), "go.mod")); err != nil {
			t.Errorf("Dir %q is not beside the repository: %v", d, err)
		}
	})
}

func TestRequire(t *testing.T) {
	t.Setenv("CI", "")
	t.Setenv(EnvVar, t.TempDir())
	ok := t.Run("missing", func(t *testing.T) {
		Require(t, "covid/none.csv")
		t.Error("Require returned for a missing file")
	})
	if !ok {
		t.Error("a missing file outside CI should skip, not fail")
	}
}
