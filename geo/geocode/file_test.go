package geocode

import (
	"testing"
	"unsafe"
)

// TestRecordLayout: the records geocode.bin stores as they are in memory
// have the fixed layout the file format says, with no implicit padding.
func TestRecordLayout(t *testing.T) {
	if !recordsOK() {
		t.Fatalf("sizes: feature %d, area %d, placeCtx %d", unsafe.Sizeof(feature{}), unsafe.Sizeof(area{}), unsafe.Sizeof(placeCtx{}))
	}
	var f feature
	for _, c := range []struct {
		name      string
		got, want uintptr
	}{
		{"feature.name", unsafe.Offsetof(f.name), 4},
		{"feature.hnTo", unsafe.Offsetof(f.hnTo), 32},
		{"feature.nparts", unsafe.Offsetof(f.nparts), 40},
		{"feature.osmID", unsafe.Offsetof(f.osmID), 48},
		{"feature.pt", unsafe.Offsetof(f.pt), 56},
		{"feature.bound", unsafe.Offsetof(f.bound), 72},
		{"area.bound", unsafe.Offsetof(area{}.bound), 16},
		{"area.center", unsafe.Offsetof(area{}.center), 48},
	} {
		if c.got != c.want {
			t.Errorf("%s at offset %d, want %d", c.name, c.got, c.want)
		}
	}
}
