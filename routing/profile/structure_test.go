package profile

import "testing"

func TestStructure(t *testing.T) {
	for _, tc := range []struct {
		tags           mapTags
		bridge, tunnel bool
		layer          int8
	}{
		{mapTags{"bridge": "yes", "layer": "1"}, true, false, 1},
		{mapTags{"bridge": "viaduct"}, true, false, 0},
		{mapTags{"bridge": "no", "layer": "x"}, false, false, 0},
		{mapTags{"tunnel": "building_passage", "layer": " -1 "}, false, true, -1},
		{mapTags{"tunnel": "Yes", "layer": "-12"}, false, true, -5},
		{mapTags{"layer": "9"}, false, false, 5},
		{mapTags{}, false, false, 0},
	} {
		b, tu, l := structure(tc.tags)
		if b != tc.bridge || tu != tc.tunnel || l != tc.layer {
			t.Errorf("%v: bridge %v tunnel %v layer %d", tc.tags, b, tu, l)
		}
	}
}
