package profile

import "testing"

func TestParseOneway(t *testing.T) {
	tests := []struct {
		in      string
		implied bool
		want    Oneway
	}{
		{"yes", false, OnewayForward},
		{"1", false, OnewayForward},
		{"true", false, OnewayForward},
		{" YES ", false, OnewayForward},
		{"-1", false, OnewayBackward},
		{"reverse", false, OnewayBackward},
		{"-1", true, OnewayBackward},
		{"no", false, OnewayNo},
		{"false", false, OnewayNo},
		{"0", false, OnewayNo},
		{"no", true, OnewayNo},
		{"", false, OnewayNo},
		{"", true, OnewayForward},
		{"garbage", false, OnewayNo},
		{"garbage", true, OnewayForward},
		{"reversible", false, OnewayClosed},
		{"alternating", true, OnewayClosed},
	}
	for _, tc := range tests {
		if got := ParseOneway(tc.in, tc.implied); got != tc.want {
			t.Errorf("ParseOneway(%q, %v) = %v, want %v", tc.in, tc.implied, got, tc.want)
		}
	}
	for _, tc := range []struct {
		o        Oneway
		fwd, bwd bool
	}{{OnewayNo, true, true}, {OnewayForward, true, false}, {OnewayBackward, false, true}, {OnewayClosed, false, false}} {
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
		o := ParseOneway(s, implied)
		if o < OnewayNo || o > OnewayClosed {
			t.Fatalf("ParseOneway(%q, %v) = %d out of range", s, implied, o)
		}
		plain := ParseOneway(s, false)
		// Implied one-way only changes the answer for values that say
		// nothing, and then from both ways to forward.
		if o != plain && !(plain == OnewayNo && o == OnewayForward) {
			t.Fatalf("ParseOneway(%q): implied %v, plain %v", s, o, plain)
		}
		if implied && o == OnewayNo && plain != OnewayNo {
			t.Fatalf("ParseOneway(%q, true) = no", s)
		}
	})
}
