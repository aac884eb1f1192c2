package zip4

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/internal/binfmt"
)

func TestEmptyLayer(t *testing.T) {
	dir := t.TempDir()
	if err := NewLayer(nil, Meta{Source: SourceDerived, Derived: true}).WriteFile(dir); err != nil {
		t.Fatal(err)
	}
	l, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if l.Len() != 0 || len(l.At(nil, orb.Point{-75.5, 39.1})) != 0 || len(l.ByZip9("199010001")) != 0 {
		t.Errorf("empty layer answers: %d features", l.Len())
	}
}

func TestLoadErrors(t *testing.T) {
	dir := t.TempDir()
	if _, err := Load(dir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
	features, _ := Derive(crossing(), Options{Workers: 1})
	if err := NewLayer(features, Meta{Source: SourceDerived, Derived: true}).WriteFile(dir); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, FileName)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	data[len(data)/2] ^= 0xff
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(dir); !errors.Is(err, binfmt.ErrChecksum) {
		t.Errorf("corrupt file: %v", err)
	}
}

func TestAtOutside(t *testing.T) {
	features, _ := Derive(crossing(), Options{Workers: 1})
	l := NewLayer(features, Meta{})
	for _, p := range []orb.Point{{180, 90}, {-180, -90}, {0, 0}, {1e300, 39}} {
		if ids := l.At(nil, p); len(ids) != 0 {
			t.Errorf("At(%v) = %v", p, ids)
		}
	}
}
