package lonlat

import (
	"reflect"
	"strings"
	"testing"

	"github.com/paulmach/orb"
	"github.com/paulmach/orb/planar"
)

func TestRing(t *testing.T) {
	tests := []struct {
		name    string
		in      orb.Ring
		want    orb.Ring
		wantErr string
	}{
		{
			name: "plain ring: unchanged",
			in:   orb.Ring{{0, 0}, {1, 0}, {1, 1}, {0, 0}},
			want: orb.Ring{{0, 0}, {1, 0}, {1, 1}, {0, 0}},
		},
		{
			name: "repeated points dropped",
			in:   orb.Ring{{0, 0}, {1, 0}, {1, 0}, {1, 1}, {0, 0}, {0, 0}},
			want: orb.Ring{{0, 0}, {1, 0}, {1, 1}, {0, 0}},
		},
		{
			name: "float noise at the limits",
			in:   orb.Ring{{179, 89}, {180.00000000000003, 89}, {179.99999999999997, 90.00000000000001}, {179, 89}},
			want: orb.Ring{{179, 89}, {180, 89}, {180, 90}, {179, 89}},
		},
		{
			// Like Russia's mainland in world-atlas: east of the
			// antimeridian, with two vertices written -180.
			name: "run written -180 between eastern vertices",
			in:   orb.Ring{{179.8, 65}, {170, 66}, {179.7, 69}, {-180, 68.9}, {-180, 65.1}, {179.8, 65}},
			want: orb.Ring{{179.8, 65}, {170, 66}, {179.7, 69}, {180, 68.9}, {180, 65.1}, {179.8, 65}},
		},
		{
			// Like Fiji's Taveuni: the ring starts on the antimeridian
			// written -180, then 180.
			name: "run mixing -180 and 180 at the ring's start",
			in:   orb.Ring{{-180, -16.5}, {180, -16.5}, {179.9, -16.6}, {179.9, -16.4}, {180, -16.4}, {-180, -16.5}},
			want: orb.Ring{{179.9, -16.6}, {179.9, -16.4}, {180, -16.4}, {180, -16.5}, {179.9, -16.6}},
		},
		{
			name: "west of the antimeridian: -180 kept",
			in:   orb.Ring{{-180, 65}, {-179, 65}, {-179, 66}, {-180, 66}, {-180, 65}},
			want: orb.Ring{{-180, 65}, {-179, 65}, {-179, 66}, {-180, 66}, {-180, 65}},
		},
		{
			// Like Antarctica: eastwards around the south pole, from a
			// vertex written -180 back to it.
			name: "around the south pole through a vertex on the antimeridian",
			in:   orb.Ring{{-180, -84}, {-90, -75}, {0, -70}, {90, -66}, {179.7, -84.1}, {-180, -84}},
			want: orb.Ring{{-90, -75}, {0, -70}, {90, -66}, {179.7, -84.1}, {180, -84}, {180, -90}, {-180, -90}, {-180, -84}, {-90, -75}},
		},
		{
			name: "around the north pole through an edge",
			in:   orb.Ring{{170, 80}, {-170, 82}, {0, 85}, {170, 80}},
			want: orb.Ring{{170, 80}, {180, 81}, {180, 90}, {-180, 90}, {-180, 81}, {-170, 82}, {0, 85}, {170, 80}},
		},
		{
			name:    "crossing twice: not cut",
			in:      orb.Ring{{170, 0}, {-170, 0}, {-170, 1}, {170, 1}, {170, 0}},
			wantErr: "2 times",
		},
		{
			name:    "open ring",
			in:      orb.Ring{{0, 0}, {1, 0}, {1, 1}, {0, 1}},
			wantErr: "not closed",
		},
		{
			name:    "off the globe",
			in:      orb.Ring{{0, 0}, {1, 0}, {1, 91}, {0, 0}},
			wantErr: "outside the globe",
		},
		{
			name:    "collapsed",
			in:      orb.Ring{{0, 0}, {1, 0}, {1, 0}, {0, 0}},
			wantErr: "without area: 2 distinct points",
		},
		{
			// Like a Spanish islet at 1:10m: one arc of two equal points.
			name:    "one point",
			in:      orb.Ring{{-5, 36}, {-5, 36}},
			wantErr: "without area: 1 distinct points",
		},
		{
			// Like the Vatican at 1:10m: three points on a meridian.
			name:    "on one line",
			in:      orb.Ring{{12.45, 41.90}, {12.45, 41.91}, {12.45, 41.905}, {12.45, 41.90}},
			wantErr: "without area: 3 points on one line",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := append(orb.Ring(nil), tt.in...)
			got, err := Ring(in)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got  %v\nwant %v", got, tt.want)
			}
		})
	}
}

// TestPoleRingContainsPole: the repaired Antarctica-like ring contains the
// pole and the interior, not the ocean.
func TestPoleRingContainsPole(t *testing.T) {
	r, err := Ring(orb.Ring{{-180, -84}, {-90, -75}, {0, -70}, {90, -66}, {179.7, -84.1}, {-180, -84}})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		p    orb.Point
		want bool
	}{
		{orb.Point{0, -90}, true},
		{orb.Point{45, -80}, true},
		{orb.Point{-179.9, -85}, true},
		{orb.Point{0, -60}, false},
		{orb.Point{179.9, -80}, false},
	} {
		if got := planar.RingContains(r, tc.p); got != tc.want {
			t.Errorf("contains %v = %v, want %v", tc.p, got, tc.want)
		}
	}
}

func TestOrient(t *testing.T) {
	ccw := orb.Ring{{0, 0}, {2, 0}, {2, 1}, {0, 0}}
	if a := Area(ccw); a != 1 {
		t.Fatalf("area %v, want 1", a)
	}
	r := append(orb.Ring(nil), ccw...)
	Orient(r, false)
	if Area(r) != -1 || r[1] != (orb.Point{2, 1}) {
		t.Errorf("Orient(cw) = %v", r)
	}
	Orient(r, true)
	if !reflect.DeepEqual(r, ccw) {
		t.Errorf("Orient(ccw) = %v", r)
	}
}
