package geo

import (
	"math"
	"testing"

	"github.com/paulmach/orb"
)

func TestRound7(t *testing.T) {
	for _, c := range []struct{ in, want float64 }{
		{39.104563000000006, 39.104563},
		{-75.12345675, -75.1234568},
		{-75.12345674, -75.1234567},
		{180, 180},
		{0, 0},
		{1e-8, 0},
		{5e-8, 1e-7},
	} {
		if got := Round7(c.in); got != c.want {
			t.Errorf("Round7(%v) = %v, want %v", c.in, got, c.want)
		}
	}
	if got := Round7Point(orb.Point{-75.000000049, 39.00000005}); got != (orb.Point{-75, 39.0000001}) {
		t.Errorf("Round7Point = %v", got)
	}
	if !math.IsNaN(Round7(math.NaN())) {
		t.Error("Round7(NaN) is a number")
	}
}
