package keys

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/geosvc/geosvc/internal/redistest"
)

// newStore returns a store on the test Redis with a clock tests can move.
func newStore(t *testing.T) (*Store, *redistest.Redis, *time.Time) {
	t.Helper()
	r := redistest.New(t)
	now := time.Date(2026, 3, 14, 23, 30, 0, 0, time.UTC)
	s := NewStore(r.Client, Options{Prefix: r.Prefix, Now: func() time.Time { return now }})
	return s, r, &now
}

func TestCreateAuthenticate(t *testing.T) {
	ctx := context.Background()
	s, r, _ := newStore(t)
	k, plain, err := s.Create(ctx, CreateOptions{Owner: "acme", Interfaces: []string{"geocoderv1"}})
	if err != nil {
		t.Fatal(err)
	}
	if k.Owner != "acme" || k.Status != Active || !k.Created.Equal(time.Date(2026, 3, 14, 23, 30, 0, 0, time.UTC)) {
		t.Errorf("Create = %+v", k)
	}
	// The plain key is nowhere in Redis; its hash is.
	keys, _ := r.Client.Keys(ctx, r.Prefix+"*").Result()
	for _, rk := range keys {
		if strings.Contains(rk, plain) {
			t.Errorf("redis key %s holds the plain key", rk)
		}
		if typ, _ := r.Client.Type(ctx, rk).Result(); typ == "hash" {
			m, _ := r.Client.HGetAll(ctx, rk).Result()
			for f, v := range m {
				if strings.Contains(v, plain) {
					t.Errorf("%s field %s holds the plain key", rk, f)
				}
			}
		}
	}
	if n, _ := r.Client.Exists(ctx, r.Prefix+"key:"+Hash(plain)).Result(); n != 1 {
		t.Errorf("record under the key's hash missing")
	}

	tests := []struct {
		name string
		key  string
		err  error
	}{
		{"right key", plain, nil},
		{"wrong key", flipLast(plain), ErrUnknown},
		{"short key", "gs_short", ErrMalformed},
		{"long key", strings.Repeat("k", 129), ErrMalformed},
		{"empty", "", ErrMalformed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := s.Authenticate(ctx, tt.key)
			if !errors.Is(err, tt.err) {
				t.Fatalf("Authenticate = %v, want %v", err, tt.err)
			}
			if err == nil && (got.ID != k.ID || !got.Allows("geocoderv1") || got.Allows("tdmv1")) {
				t.Errorf("Authenticate = %+v, want %+v", got, k)
			}
		})
	}

	if _, _, err := s.Create(ctx, CreateOptions{Key: plain}); !errors.Is(err, ErrExists) {
		t.Errorf("second Create of the same value = %v, want ErrExists", err)
	}
	if _, _, err := s.Create(ctx, CreateOptions{Key: "short"}); err == nil {
		t.Errorf("Create with a short value succeeded")
	}
	for _, ifaces := range [][]string{{"Bad Name"}, {"tdm", "foo"}, {"tdmv1", "foo"}, {""}} {
		if _, _, err := s.Create(ctx, CreateOptions{Interfaces: ifaces}); err == nil || !strings.Contains(err.Error(), "unknown interface") {
			t.Errorf("Create with interfaces %q: %v, want an unknown interface error", ifaces, err)
		}
	}
	if _, _, err := s.Create(ctx, CreateOptions{Interfaces: []string{TDMV1, SOAP}}); err != nil {
		t.Errorf("Create with known interfaces: %v", err)
	}
}

func TestRevokeAndList(t *testing.T) {
	ctx := context.Background()
	s, _, now := newStore(t)
	a, pa, err := s.Create(ctx, CreateOptions{Owner: "a"})
	if err != nil {
		t.Fatal(err)
	}
	*now = now.Add(time.Minute)
	b, pb, err := s.Create(ctx, CreateOptions{Owner: "b"})
	if err != nil {
		t.Fatal(err)
	}
	*now = now.Add(time.Minute)
	rk, err := s.Revoke(ctx, a.ID)
	if err != nil {
		t.Fatal(err)
	}
	if rk.Status != Revoked || !rk.RevokedAt.Equal(*now) {
		t.Errorf("Revoke = %+v", rk)
	}
	if _, err := s.Authenticate(ctx, pa); !errors.Is(err, ErrRevoked) {
		t.Errorf("Authenticate(revoked) = %v, want ErrRevoked", err)
	}
	if _, err := s.Authenticate(ctx, pb); err != nil {
		t.Errorf("Authenticate(other) = %v", err)
	}
	*now = now.Add(time.Minute)
	again, err := s.Revoke(ctx, a.ID)
	if err != nil || !again.RevokedAt.Equal(rk.RevokedAt) {
		t.Errorf("second Revoke = %+v, %v; want first revocation time kept", again, err)
	}
	if _, err := s.Revoke(ctx, "nope"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Revoke(unknown) = %v, want ErrNotFound", err)
	}
	list, err := s.List(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 2 || list[0].ID != a.ID || list[1].ID != b.ID || list[0].Status != Revoked || list[1].Status != Active {
		t.Errorf("List = %+v", list)
	}
}

func TestUsage(t *testing.T) {
	ctx := context.Background()
	s, r, now := newStore(t)
	steps := []struct {
		metric string
		n      int64
	}{{"tdmv1", 1}, {"tdmv1", 2}, {"tdmv1.cells", 1000000}, {"geocoderv1", 5}}
	for _, st := range steps {
		if err := s.AddUsage(ctx, "k1", st.metric, st.n); err != nil {
			t.Fatal(err)
		}
	}
	*now = now.Add(time.Hour) // 2026-03-15 00:30 UTC: a new day
	if err := s.AddUsage(ctx, "k1", "tdmv1", 7); err != nil {
		t.Fatal(err)
	}
	if err := s.AddCells(ctx, "k1", "tdmv1", 4); err != nil {
		t.Fatal(err)
	}
	if err := s.AddUsage(ctx, "k2", "tdmv1", 100); err != nil {
		t.Fatal(err)
	}
	got, err := s.Usage(ctx, "k1", 3)
	if err != nil {
		t.Fatal(err)
	}
	want := []DayUsage{
		{"2026-03-15", map[string]int64{"tdmv1": 7, "tdmv1.cells": 4}},
		{"2026-03-14", map[string]int64{"tdmv1": 3, "tdmv1.cells": 1000000, "geocoderv1": 5}},
		{"2026-03-13", map[string]int64{}},
	}
	if len(got) != len(want) {
		t.Fatalf("Usage = %+v", got)
	}
	for i := range want {
		if got[i].Day != want[i].Day || len(got[i].Counts) != len(want[i].Counts) {
			t.Errorf("day %d = %+v, want %+v", i, got[i], want[i])
			continue
		}
		for m, n := range want[i].Counts {
			if got[i].Counts[m] != n {
				t.Errorf("%s %s = %d, want %d", want[i].Day, m, got[i].Counts[m], n)
			}
		}
	}
	if ttl, _ := r.Client.TTL(ctx, r.Prefix+"usage:k1:2026-03-15").Result(); ttl <= 0 || ttl > DefaultUsageRetention {
		t.Errorf("usage TTL = %v, want (0, %v]", ttl, DefaultUsageRetention)
	}
	if _, err := s.Usage(ctx, "k1", 0); err == nil {
		t.Errorf("Usage(0 days) succeeded")
	}
}

func TestEnsureDemo(t *testing.T) {
	ctx := context.Background()
	s, r, _ := newStore(t)

	first, err := s.EnsureDemo(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	if !first.Created || first.Plain == "" || first.Key.Owner != DemoOwner {
		t.Fatalf("first EnsureDemo = %+v", first)
	}
	second, err := s.EnsureDemo(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	if second.Created || second.Plain != "" || second.Key.ID != first.Key.ID {
		t.Errorf("restart EnsureDemo = %+v, want the same id %s, no value", second, first.Key.ID)
	}
	// Revoked demo key: a new one is created.
	if _, err := s.Revoke(ctx, first.Key.ID); err != nil {
		t.Fatal(err)
	}
	third, err := s.EnsureDemo(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	if !third.Created || third.Key.ID == first.Key.ID {
		t.Errorf("EnsureDemo after revoke = %+v, want a new key", third)
	}

	// Eight processes starting at once: one demo key, created once.
	if _, err := s.Revoke(ctx, third.Key.ID); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	demos := make([]Demo, 8)
	errs := make([]error, 8)
	for i := range demos {
		wg.Go(func() {
			other := NewStore(r.Client, Options{Prefix: r.Prefix})
			demos[i], errs[i] = other.EnsureDemo(ctx, "")
		})
	}
	wg.Wait()
	created := 0
	for i, d := range demos {
		if errs[i] != nil {
			t.Fatal(errs[i])
		}
		if d.Created {
			created++
		}
		if d.Key.ID != demos[0].Key.ID || d.Key.ID == third.Key.ID {
			t.Errorf("concurrent start %d got demo key %s, start 0 %s", i, d.Key.ID, demos[0].Key.ID)
		}
	}
	if created != 1 {
		t.Errorf("%d concurrent starts created a demo key, want 1", created)
	}

	fixed := "demo-key-for-scripts-0123456789"
	// The same with GEOSVC_DEMO_KEY set: one creates it, none fails.
	fixedDemos := make([]Demo, 8)
	for i := range fixedDemos {
		wg.Go(func() {
			other := NewStore(r.Client, Options{Prefix: r.Prefix})
			fixedDemos[i], errs[i] = other.EnsureDemo(ctx, fixed+"-concurrent")
		})
	}
	wg.Wait()
	created = 0
	for i, d := range fixedDemos {
		if errs[i] != nil {
			t.Fatalf("concurrent start %d with a fixed key: %v", i, errs[i])
		}
		if d.Created {
			created++
		}
		if d.Key.ID != fixedDemos[0].Key.ID || d.Plain != fixed+"-concurrent" {
			t.Errorf("concurrent fixed start %d = %+v", i, d)
		}
	}
	if created != 1 {
		t.Errorf("%d concurrent starts created the fixed demo key, want 1", created)
	}
	tests := []struct {
		name    string
		fixed   string
		created bool
		wantErr bool
	}{
		{"fixed, first start", fixed, true, false},
		{"fixed, restart", fixed, false, false},
		{"fixed too short", "short", false, true},
	}
	var fixedID string
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := s.EnsureDemo(ctx, tt.fixed)
			if (err != nil) != tt.wantErr {
				t.Fatalf("EnsureDemo(%q) = %v", tt.fixed, err)
			}
			if err != nil {
				return
			}
			if d.Created != tt.created || d.Plain != tt.fixed {
				t.Errorf("EnsureDemo(%q) = %+v", tt.fixed, d)
			}
			if fixedID != "" && d.Key.ID != fixedID {
				t.Errorf("id changed: %s -> %s", fixedID, d.Key.ID)
			}
			fixedID = d.Key.ID
		})
	}
	if k, err := s.Authenticate(ctx, fixed); err != nil || k.ID != fixedID {
		t.Errorf("Authenticate(fixed demo) = %+v, %v", k, err)
	}
}

// flipLast returns key with its last character changed.
func flipLast(key string) string {
	last := byte('a')
	if key[len(key)-1] == 'a' {
		last = 'b'
	}
	return key[:len(key)-1] + string(last)
}
