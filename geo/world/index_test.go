package world

import (
	"bytes"
	"testing"

	"github.com/paulmach/orb"
)

// TestBorders: a point on a border two features share is answered by the
// one first in Features' order, whichever polygon the index meets first;
// the antimeridian is one line whether written 180 or -180.
func TestBorders(t *testing.T) {
	ix := testIndex(t)
	fs := testFeatures(t)
	byID := map[string]*Feature{}
	for i := range fs {
		byID[fs[i].ID] = &fs[i]
	}
	// Every vertex of Kent County (10001) that New Castle County (10003)
	// has too lies on their shared border.
	kent, newCastle := byID["10001"], byID["10003"]
	shared := 0
	for _, v := range kent.Geometry[0][0] {
		if !onRing(newCastle.Geometry, v) {
			continue
		}
		shared++
		if f, ok := ix.CountyAt(v); !ok || f.ID != "10001" {
			t.Errorf("shared vertex %v: county %v, want 10001 (first of the two)", v, f)
		}
	}
	if shared < 2 {
		t.Fatalf("%d vertices shared by Kent and New Castle counties", shared)
	}
	// Russia's vertices on the antimeridian (Chukotka, written 180 or
	// -180 by side) are found either way.
	russia := byID["643"]
	found := 0
	for _, p := range russia.Geometry {
		for _, v := range p[0] {
			if v[0] != 180 && v[0] != -180 {
				continue
			}
			found++
			for _, q := range []orb.Point{v, {-v[0], v[1]}} {
				if f, ok := ix.CountryAt(q); !ok || f.ID != "643" {
					t.Errorf("antimeridian vertex %v as %v: %v, want Russia", v, q, f)
				}
			}
		}
	}
	if found == 0 {
		t.Error("Russia has no vertex on the antimeridian")
	}
	if _, ok := ix.At(Kind(0), orb.Point{2.35, 48.86}); ok {
		t.Error("kind 0 answered")
	}
}

// onRing reports whether v is a vertex of one of mp's rings.
func onRing(mp orb.MultiPolygon, v orb.Point) bool {
	for _, p := range mp {
		for _, r := range p {
			for _, w := range r {
				if w == v {
					return true
				}
			}
		}
	}
	return false
}

// TestDecodeDamaged: a damaged file is an error, not a panic.
func TestDecodeDamaged(t *testing.T) {
	if _, err := decode(worldBin[:len(worldBin)/2]); err == nil {
		t.Error("half a file decoded")
	}
	b := bytes.Clone(worldBin)
	b[len(b)/3] ^= 0x40
	if _, err := decode(b); err == nil {
		t.Error("a flipped bit went unnoticed")
	}
}
