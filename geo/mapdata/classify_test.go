package mapdata

import (
	"testing"

	"github.com/paulmach/orb"
)

func TestSameTownName(t *testing.T) {
	tests := []struct {
		area, node string
		want       bool
	}{
		{"City of Seaford", "Seaford", true},
		{"Seaford", "seaford", true},
		{"Town of Smyrna", "Smyrna", true},
		{"Newark, Delaware", "Newark", true},
		{"City of Seaford", "Ford", false},
		{"Seaford", "City of Seaford", false},
		{"Milford", "Mil", false},
		{"Dover", "", false},
	}
	for _, tc := range tests {
		if got := sameTownName(tc.area, tc.node); got != tc.want {
			t.Errorf("sameTownName(%q, %q) = %v, want %v", tc.area, tc.node, got, tc.want)
		}
	}
}

func TestLabelledByNode(t *testing.T) {
	square := orb.MultiPolygon{{{{0, 0}, {1, 0}, {1, 1}, {0, 1}, {0, 0}}}}
	area := Place{Name: "City of Seaford", Kind: City}
	tests := []struct {
		name  string
		nodes []Place
		want  bool
	}{
		{"its node inside", []Place{{Name: "Seaford", Point: orb.Point{0.5, 0.5}}}, true},
		{"its name outside the area", []Place{{Name: "Seaford", Point: orb.Point{2, 2}}}, false},
		{"another town inside", []Place{{Name: "Blades", Point: orb.Point{0.5, 0.5}}}, false},
		{"no nodes", nil, false},
	}
	for _, tc := range tests {
		if got := labelledByNode(area, square, tc.nodes); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}
