package bundle

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/geosvc/geosvc/routing"
	"github.com/geosvc/geosvc/routing/speeds"
)

// LayerSpeeds is the speed data a bundle was built with (--speeds): the
// file as given, speeds.csv or speeds.yaml, applied to the car's graph
// (and the truck metric on it) when the bundle opens.
const LayerSpeeds = "speeds"

// readSpeeds reads and parses a speed file for a build.
func readSpeeds(path string) (*speeds.Data, []byte, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, fmt.Errorf("--speeds: %w", err)
	}
	d, err := speeds.Parse(path, b)
	if err != nil {
		return nil, nil, fmt.Errorf("--speeds %s: %w", path, err)
	}
	return d, b, nil
}

// writeSpeeds maps d onto g for the build's report and writes the file
// into the bundle directory dir, returning its layer.
func writeSpeeds(dir string, g *routing.Graph, d *speeds.Data, raw []byte) (Layer, routing.SpeedReport, error) {
	rep := g.MapSpeeds(d).Report()
	name := "speeds." + d.Format
	if err := os.WriteFile(filepath.Join(dir, name), raw, 0o644); err != nil {
		return Layer{}, rep, err
	}
	return Layer{Name: LayerSpeeds, File: name, Size: int64(len(raw))}, rep, nil
}

// openSpeeds applies the bundle's own speed data, if it has any, to its
// car graph.
func (b *Bundle) openSpeeds() error {
	if b.Graph == nil {
		return nil
	}
	for _, l := range b.Manifest.Layers {
		if l.Name != LayerSpeeds {
			continue
		}
		raw, err := os.ReadFile(filepath.Join(b.Dir, l.File))
		if err != nil {
			return fmt.Errorf("speeds: %w", err)
		}
		d, err := speeds.Parse(l.File, raw)
		if err != nil {
			return fmt.Errorf("speeds %s: %w", l.File, err)
		}
		b.ApplySpeeds(d)
	}
	return nil
}

// ApplySpeeds maps speed data onto the bundle's car graph and makes it
// the current speed profile (the truck metric, on the car's graph, uses
// it too; the bicycle and foot graphs take none). It returns how the
// data mapped; a bundle without a graph reports nothing.
func (b *Bundle) ApplySpeeds(d *speeds.Data) routing.SpeedReport {
	if b == nil || b.Graph == nil {
		return routing.SpeedReport{}
	}
	p := b.Graph.MapSpeeds(d)
	b.Graph.SetSpeeds(p)
	return p.Report()
}

// SpeedInfo describes the speed data a bundle's car graph applies.
type SpeedInfo struct {
	// Version is the data's version ("" without speed data).
	Version string `json:"version"`
	// LoadedAt is when it was applied.
	LoadedAt time.Time `json:"loaded_at"`
	// Report says how it mapped onto the graph.
	Report routing.SpeedReport `json:"report"`
}

// Speeds returns the speed data the car graph applies, nil without any.
func (b *Bundle) Speeds() *SpeedInfo {
	if b == nil || b.Graph == nil {
		return nil
	}
	p := b.Graph.Speeds()
	if p == nil {
		return nil
	}
	return &SpeedInfo{Version: p.Version(), LoadedAt: p.LoadedAt(), Report: p.Report()}
}

// SetSpeeds applies live speed data (POST /admin/speeds, --speeds-watch)
// to the bundle being served and keeps it: a bundle stored later (new
// OSM data) gets it too, in place of the speed data it was built with.
// It returns how the data mapped onto the current bundle.
func (c *Current) SetSpeeds(d *speeds.Data) routing.SpeedReport {
	c.mu.Lock()
	c.speeds = d
	c.mu.Unlock()
	return c.Load().ApplySpeeds(d)
}
