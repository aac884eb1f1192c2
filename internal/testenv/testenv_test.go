package testenv

import (
	"testing"
)

func TestRequired(t *testing.T) {
	tests := []struct {
		ci   string
		want bool
	}{
		{"true", true},
		{"1", true},
		{"", false},
		{"false", false},
		{"yes", false},
	}
	for _, tt := range tests {
		t.Run("CI="+tt.ci, func(t *testing.T) {
			t.Setenv("CI", tt.ci)
			if got := Required(); got != tt.want {
				t.Errorf("Required() with CI=%q = %v, want %v", tt.ci, got, tt.want)
			}
		})
	}
}

// recorder is a testing.TB that records how Skip ended it.
type recorder struct {
	testing.TB
	skipped, failed bool
	msg             string
}

func (r *recorder) Helper()                   {}
func (r *recorder) Skip(args ...any)          { r.skipped = true; r.msg = args[0].(string) }
func (r *recorder) Fatalf(f string, a ...any) { r.failed = true; r.msg = f }

func TestSkip(t *testing.T) {
	tests := []struct {
		ci            string
		skipped, fail bool
	}{
		{"true", false, true},
		{"", true, false},
	}
	for _, tt := range tests {
		t.Run("CI="+tt.ci, func(t *testing.T) {
			t.Setenv("CI", tt.ci)
			r := &recorder{TB: t}
			Skip(r, "no %s", "redis-server")
			if r.skipped != tt.skipped || r.failed != tt.fail {
				t.Errorf("Skip with CI=%q: skipped %v failed %v, want %v %v", tt.ci, r.skipped, r.failed, tt.skipped, tt.fail)
			}
		})
	}
}
