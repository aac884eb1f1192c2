package bundle

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/geosvc/geosvc/routing"
	"github.com/geosvc/geosvc/routing/osmroad"
	"github.com/geosvc/geosvc/routing/speeds"
)

// LayerSpeeds is the speed data a bundle was built with (--speeds): the
// file as given, speeds.csv or speeds.yaml, applied to the car's graph
// (and the truck metric on it) when the bundle opens.
const LayerSpeeds = "speeds"

// LayerCondMaxspeeds is the OSM data's conditional maximum speeds
// (maxspeed:conditional whose conditions are times), as segment rows by
// the hour (maxspeed-conditional.csv): caps applied with any speed data
// when a time is given (docs/routing.md, "Conditional maximum speeds").
const LayerCondMaxspeeds = "maxspeed_conditional"

// condMaxspeedRows returns the rows of a network's conditional maximum
// speeds.
func condMaxspeedRows(ways []osmroad.CondMaxspeedWay) []speeds.Segment {
	var rows []speeds.Segment
	for _, w := range ways {
		rows = append(rows, speeds.CapSegments(w.Nodes, w.Forward, w.Backward, w.Parts)...)
	}
	return rows
}

// writeCondMaxspeeds writes the rows into the bundle directory dir,
// returning its layer.
func writeCondMaxspeeds(dir string, rows []speeds.Segment) (Layer, error) {
	raw := speeds.FormatCSV(rows)
	const name = "maxspeed-conditional.csv"
	if err := os.WriteFile(filepath.Join(dir, name), raw, 0o644); err != nil {
		return Layer{}, err
	}
	return Layer{Name: LayerCondMaxspeeds, File: name, Size: int64(len(raw))}, nil
}

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

// openSpeeds applies the bundle's own speed data and conditional maximum
// speeds, if it has any, to its car graph.
func (b *Bundle) openSpeeds() error {
	if b.Graph == nil {
		return nil
	}
	var own *speeds.Data
	for _, l := range b.Manifest.Layers {
		if l.Name != LayerSpeeds && l.Name != LayerCondMaxspeeds {
			continue
		}
		raw, err := os.ReadFile(filepath.Join(b.Dir, l.File))
		if err != nil {
			return fmt.Errorf("%s: %w", l.Name, err)
		}
		d, err := speeds.Parse(l.File, raw)
		if err != nil {
			return fmt.Errorf("%s %s: %w", l.Name, l.File, err)
		}
		if l.Name == LayerCondMaxspeeds {
			b.caps = d
		} else {
			own = d
		}
	}
	if own != nil || b.caps != nil {
		b.ApplySpeeds(own)
	}
	return nil
}

// ApplySpeeds maps speed data onto the bundle's car graph and makes it
// the current speed profile (the truck metric, on the car's graph, uses
// it too; the bicycle and foot graphs take none), with the bundle's
// conditional maximum speeds as caps; d nil applies those alone. It
// returns how the data mapped; a bundle without a graph reports
// nothing.
func (b *Bundle) ApplySpeeds(d *speeds.Data) routing.SpeedReport {
	if b == nil || b.Graph == nil {
		return routing.SpeedReport{}
	}
	d = b.withCaps(d)
	if d == nil {
		return routing.SpeedReport{}
	}
	p := b.Graph.MapSpeeds(d)
	b.Graph.SetSpeeds(p)
	return p.Report()
}

// withCaps returns d with the bundle's conditional maximum speeds as its
// caps (d itself without any; the caps alone, under their own version,
// for d nil).
func (b *Bundle) withCaps(d *speeds.Data) *speeds.Data {
	if b.caps == nil {
		return d
	}
	if d == nil {
		return &speeds.Data{Caps: b.caps.Segments, Version: b.caps.Version, Format: b.caps.Format}
	}
	m := *d
	m.Caps = b.caps.Segments
	return &m
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
