package profile

import "testing"

func TestParseOneway(t *testing.T) {
	tests := []struct {
		in      string
		implied bool
		want    onewayDir
	}{
		{"yes", false, onewayForward},
		{"1", false, onewayForward},
		{"true", false, onewayForward},
		{" YES ", false, onewayForward},
		{"-1", false, onewayBackward},
		{"reverse", false, onewayBackward},
		{"-1", true, onewayBackward},
		{"no", false, onewayNo},
		{"false", false, onewayNo},
		{"0", false, onewayNo},
		{"no", true, onewayNo},
		{"", false, onewayNo},
		{"", true, onewayForward},
		{"garbage", false, onewayNo},
		{"garbage", true, onewayForward},
		{"reversible", false, onewayClosed},
		{"alternating", true, onewayClosed},
	}
	for _, tc := range tests {
		if got := parseOneway(tc.in, tc.implied); got != tc.want {
			t.Errorf("parseOneway(%q, %v) = %v, want %v", tc.in, tc.implied, got, tc.want)
		}
	}
	for _, tc := range []struct {
		o        onewayDir
		fwd, bwd bool
	}{{onewayNo, true, true}, {onewayForward, true, false}, {onewayBackward, false, true}, {onewayClosed, false, false}} {
		if tc.o.Forward() != tc.fwd || tc.o.Backward() != tc.bwd {
			t.Errorf("%v: forward %v backward %v", tc.o, tc.o.Forward(), tc.o.Backward())
		}
	}
}

func FuzzParseOneway(f *testing.F) {
	for _, s := range []string{"yes", "1", "true", "-1", "reverse", "no", "false", "0", "reversible", "", "garbage", "YES", "-1;yes"} {
		f.Add(s, false)
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, s string, implied bool) {
		o := parseOneway(s, implied)
		if o < onewayNo || o > onewayClosed {
			t.Fatalf("parseOneway(%q, %v) = %d out of range", s, implied, o)
		}
		plain := parseOneway(s, false)
		// Implied one-way only changes the answer for values that say
		// nothing, and then from both ways to forward.
		if o != plain && !(plain == onewayNo && o == onewayForward) {
			t.Fatalf("parseOneway(%q): implied %v, plain %v", s, o, plain)
		}
		if implied && o == onewayNo && plain != onewayNo {
			t.Fatalf("parseOneway(%q, true) = no", s)
		}
	})
}
