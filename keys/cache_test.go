package keys

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/geosvc/geosvc/internal/redistest"
)

// TestAuthCache: a revocation through the same store takes effect at once;
// another process's cached answer holds until its TTL runs out.
func TestAuthCache(t *testing.T) {
	r := redistest.New(t)
	now := time.Unix(1_800_000_000, 0)
	clock := func() time.Time { return now }
	here := NewStore(r.Client, Options{Prefix: r.Prefix, Now: clock, AuthCacheTTL: 2 * time.Second})
	there := NewStore(r.Client, Options{Prefix: r.Prefix, Now: clock, AuthCacheTTL: 2 * time.Second})
	ctx := context.Background()
	k, plain, err := here.Create(ctx, CreateOptions{Owner: "cache"})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []*Store{here, there} {
		if got, err := s.Authenticate(ctx, plain); err != nil || got.ID != k.ID {
			t.Fatalf("Authenticate = %v, %v", got.ID, err)
		}
	}
	if _, err := here.Revoke(ctx, k.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := here.Authenticate(ctx, plain); !errors.Is(err, ErrRevoked) {
		t.Fatalf("same store after revoke: %v, want ErrRevoked", err)
	}
	if _, err := there.Authenticate(ctx, plain); err != nil {
		t.Fatalf("other store within its TTL: %v, want the cached answer", err)
	}
	now = now.Add(3 * time.Second)
	if _, err := there.Authenticate(ctx, plain); !errors.Is(err, ErrRevoked) {
		t.Fatalf("other store after its TTL: %v, want ErrRevoked", err)
	}
	// An unknown key is remembered as unknown, until it is created here.
	if _, err := here.Authenticate(ctx, "gs_thisKeyDoesNotExistYet0123456789abcdef"); !errors.Is(err, ErrUnknown) {
		t.Fatalf("unknown key: %v", err)
	}
}

func TestUsageBatch(t *testing.T) {
	s, _, _ := newStore(t)
	ctx := context.Background()
	b := s.NewUsageBatch()
	for i := 0; i < 5; i++ {
		b.Add("key-a", "adminv1", 1)
	}
	b.Add("key-a", "tdmv1.cells", 1_000_000)
	b.Add("key-b", "adminv1", 2)
	if u, _ := s.Usage(ctx, "key-a", 1); len(u) != 1 || len(u[0].Counts) != 0 {
		t.Fatalf("before flush: %+v, want nothing written", u)
	}
	if err := b.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	b.Add("key-a", "adminv1", 1)
	if err := b.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	ua, _ := s.Usage(ctx, "key-a", 1)
	ub, _ := s.Usage(ctx, "key-b", 1)
	if ua[0].Counts["adminv1"] != 6 || ua[0].Counts["tdmv1.cells"] != 1_000_000 || ub[0].Counts["adminv1"] != 2 {
		t.Fatalf("usage a %+v b %+v", ua, ub)
	}
}
