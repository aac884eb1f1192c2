package keys

import (
	"context"
	"errors"
	"testing"
)

// TestPassCountItems: a request counted as n items takes n units of the
// quota in all (one at Admit, n-1 by CountItems), counts n in usage when
// it succeeds and gives all n back when it fails; items that would pass
// the quota are refused and take nothing.
func TestPassCountItems(t *testing.T) {
	ctx := context.Background()
	s, _, _ := newPlanStore(t, TrialPolicy{})
	g := NewGate(s, GateOptions{})
	k, _, err := s.Create(ctx, CreateOptions{Owner: "batch", Plan: "pro"}) // zip4v1: 8 a day
	if err != nil {
		t.Fatal(err)
	}
	used := func() int64 {
		u, err := s.QuotaUsed(ctx, k.ID, Zip4V1, PeriodDay, s.now())
		if err != nil {
			t.Fatal(err)
		}
		return u
	}
	usage := func() int64 {
		u, err := s.Usage(ctx, k.ID, 1)
		if err != nil {
			t.Fatal(err)
		}
		return u[0].Counts[Zip4V1]
	}
	for _, tc := range []struct {
		name           string
		items          int64
		succeed        bool
		refused        bool
		quota, counted int64 // after the request
	}{
		{"a failed batch of 3 gives all back", 3, false, false, 0, 0},
		{"a batch of 3", 3, true, false, 3, 3},
		{"a batch of 0 valid items counts as the request", 0, true, false, 4, 4},
		{"a batch of 5 would pass the quota of 8", 5, true, true, 4, 4},
		{"a batch of 4 fills it", 4, true, false, 8, 8},
	} {
		p, err := g.Admit(ctx, k, Zip4V1)
		if err != nil {
			t.Fatalf("%s: admit: %v", tc.name, err)
		}
		err = p.CountItems(ctx, tc.items)
		var qe *QuotaExceeded
		if refused := errors.As(err, &qe); refused != tc.refused || err != nil && !refused {
			t.Fatalf("%s: CountItems: %v", tc.name, err)
		}
		p.Done(ctx, tc.succeed && !tc.refused)
		if q, c := used(), usage(); q != tc.quota || c != tc.counted {
			t.Errorf("%s: quota used %d, usage %d; want %d and %d", tc.name, q, c, tc.quota, tc.counted)
		}
	}
}
