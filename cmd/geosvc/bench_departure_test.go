package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/geosvc/geosvc/routing"
	"github.com/geosvc/geosvc/routing/osmroad"
	"github.com/geosvc/geosvc/routing/profile"
)

// TestBenchDeparture: --departure reads the speed file the started
// server watches into the bench's graph and checks on the bucket of the
// departure's local hour at the first origin (alternatives.osm lies in
// Africa/Libreville, UTC+1: 07:30 UTC on Monday is hour 8, the hour the
// file slows); a time that is not RFC 3339 is an error.
func TestBenchDeparture(t *testing.T) {
	prof, err := profile.Load(filepath.Join("..", "..", "configs", "car.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	net, err := osmroad.Read(filepath.Join("..", "..", "routing", "testdata", "alternatives.osm"), prof)
	if err != nil {
		t.Fatal(err)
	}
	g, _, err := routing.Build(net, prof)
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "s.csv")
	os.WriteFile(file, []byte("3,4,5,,8\n"), 0o644)
	c := benchConfig{departure: "2026-11-30T07:30:00Z", serverArgs: []string{"--inline-cells", "0", "--speeds-watch", file}}
	m, title, err := c.departureSpec(g, routing.Fastest, "10.0001,0")
	if err != nil {
		t.Fatal(err)
	}
	if m.Bucket.Hour != 8 || m.Bucket.Version == "" || !strings.Contains(title, "hour of the week 8, Africa/Libreville") || !strings.Contains(title, "(1 buckets)") {
		t.Errorf("metric %v, title %q", m, title)
	}
	c.departure = "2026-11-30T09:30:00Z"
	if m, _, _ := c.departureSpec(g, routing.Fastest, "10.0001,0"); m.Bucket.Hour != -1 {
		t.Errorf("hour 10: %v", m)
	}
	c.departure = "monday"
	if _, _, err := c.departureSpec(g, routing.Fastest, "10.0001,0"); err == nil {
		t.Error("--departure monday accepted")
	}
	if m, title, err := (benchConfig{}).departureSpec(g, routing.Fastest, "10.0001,0"); err != nil || m != routing.Fastest || title != "" {
		t.Errorf("without --departure: %v %q %v", m, title, err)
	}
}
