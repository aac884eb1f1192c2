package geocode

import (
	"math"
	"testing"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/geo"
)

func TestNearby(t *testing.T) {
	ix := tinyIndex(t)
	p := orb.Point{-75.4995, 39.0005}
	for _, tc := range []struct {
		name   string
		kind   NearbyKind
		radius float64
		want   []string  // formatted addresses, nearest first
		dist   []float64 // their distances, metres
	}{
		{"cities within 1 km", NearbyCities, 1000, []string{"Testville, DE, USA"}, []float64{geo.HaversineM(p, orb.Point{-75.499, 39.001})}},
		{"cities within 50 m", NearbyCities, 50, nil, nil},
		{"large cities (Testville is a town)", NearbyLargeCities, 5000, nil, nil},
		// Main Street runs along lat 39.0000: 0.0005 degrees of latitude away.
		{"streets within 200 m", NearbyStreets, 200, []string{"N Main St, Testville, DE 19901, USA"}, []float64{0.0005 * geo.EarthRadiusM * math.Pi / 180}},
		{"streets within 2 km", NearbyStreets, 2000, []string{"N Main St, Testville, DE 19901, USA", "Carrer de la Unió, Testville, DE, USA"}, nil},
		{"postal codes", NearbyPostalCodes, 2000, []string{"Testville, DE 19901, USA"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cs := ix.Nearby(p, tc.radius, tc.kind, 10)
			if len(cs) != len(tc.want) {
				t.Fatalf("%d results, want %d: %+v", len(cs), len(tc.want), cs)
			}
			for i, c := range cs {
				if c.FormattedAddress != tc.want[i] {
					t.Errorf("result %d %q, want %q", i, c.FormattedAddress, tc.want[i])
				}
				if tc.dist != nil && math.Abs(c.Distance-tc.dist[i]) > 0.2 {
					t.Errorf("result %d at %.1f m, want %.1f", i, c.Distance, tc.dist[i])
				}
				if geo.HaversineM(p, c.Location) > tc.radius+0.5 {
					t.Errorf("result %d located %v, beyond the radius", i, c.Location)
				}
			}
		})
	}
	if cs := ix.Nearby(p, 5000, NearbyCities, 0); len(cs) != 0 {
		t.Errorf("limit 0 gave %d", len(cs))
	}
}
