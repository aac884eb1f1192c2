package routing

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/geosvc/geosvc/routing/speeds"
)

// keepSpeedVersions is how many speed profiles a graph keeps, the
// current one included: a matrix job ordered on an older version
// finishes on it after an update.
const keepSpeedVersions = 8

// ErrSpeedVersion is a metric naming a speed version the graph no longer
// (or never) held.
var ErrSpeedVersion = errors.New("routing: speed version not held")

// SpeedBucket selects the travel times of a speed profile at one hour
// bucket: Version is the profile's (SpeedProfile.Version; "" for none),
// Hour the bucket's first hour of the week (SpeedProfile.Bucket), or -1
// where the profile changes nothing at the hour asked (the metric is
// then computed as without a bucket; the key still records the
// version). The bucket's times apply to the whole trip (time-bucketed
// routing).
type SpeedBucket struct {
	Version string
	Hour    int16
}

// IsZero reports whether no speed bucket is selected.
func (b SpeedBucket) IsZero() bool { return b.Version == "" }

// changes reports whether the bucket changes any travel time.
func (b SpeedBucket) changes() bool { return b.Version != "" && b.Hour >= 0 }

// String returns "version@hour".
func (b SpeedBucket) String() string { return b.Version + "@" + strconv.Itoa(int(b.Hour)) }

// parseBucketKey reads a key written by SpeedBucket.String.
func parseBucketKey(s string) (SpeedBucket, error) {
	v, h, ok := strings.Cut(s, "@")
	hour, err := strconv.Atoi(h)
	if !ok || v == "" || err != nil || hour < -1 || hour >= speeds.Hours {
		return SpeedBucket{}, &SpecError{Field: "bucket", Msg: fmt.Sprintf("%q is not version@hour", s)}
	}
	return SpeedBucket{Version: v, Hour: int16(hour)}, nil
}

// SetSpeeds makes p (mapped by this graph's MapSpeeds) the graph's
// current speed profile; nil removes speed data. The previous profiles
// stay held (keepSpeedVersions in all) for metrics that name them;
// cached metrics of profiles no longer held are dropped.
//
// The metrics in use on the version it replaces (cached custom metrics
// of its buckets) are customized again on p in the background, at the
// same hours (at most maxWarm of them, most recently used first), so
// that the orders that follow find them ready.
func (g *Graph) SetSpeeds(p *SpeedProfile) {
	var warm []Metric
	if old := g.Speeds(); old != nil && p != nil {
		warm = g.metrics.specsOf(old.version, maxWarm)
	}
	g.speedMu.Lock()
	held := []*SpeedProfile{}
	if p != nil {
		held = append(held, p)
	}
	for _, q := range g.speedHeld {
		if q != p && q.version != p.Version() && len(held) < keepSpeedVersions {
			held = append(held, q)
		}
	}
	g.speedHeld = held
	g.speedCur.Store(p)
	g.speedMu.Unlock()
	g.metrics.dropUnheld(func(v string) bool { return g.speedProfile(v) != nil })
	if len(warm) > 0 {
		go func() {
			for _, m := range warm {
				_ = g.Warm(context.Background(), m, int(m.Bucket.Hour))
			}
		}()
	}
}

// maxWarm is the most metrics an update customizes again at once.
const maxWarm = 4

// Speeds returns the graph's current speed profile, nil without one.
func (g *Graph) Speeds() *SpeedProfile { return g.speedCur.Load() }

// speedProfile returns the held profile of that version, nil if none.
func (g *Graph) speedProfile(version string) *SpeedProfile {
	g.speedMu.Lock()
	defer g.speedMu.Unlock()
	for _, p := range g.speedHeld {
		if p.version == version {
			return p
		}
	}
	return nil
}

// AtHour returns m at hour of the week h (0..167) on the graph's current
// speed profile, and that profile's version ("" without one): m with the
// bucket of h (Hour -1 where nothing changes at h), or m without a
// bucket on a graph without speed data; and with the turns conditional
// turn restrictions close at h (Metric.Turns; 0 on a graph without
// any, or at an hour closing those closed without a time).
func (g *Graph) AtHour(m Metric, h int) (Metric, string) {
	p := g.Speeds()
	m.Bucket = SpeedBucket{}
	m.Turns = g.turnsAt(h)
	if p == nil {
		return m, ""
	}
	m.Bucket = SpeedBucket{Version: p.version, Hour: -1}
	if rep, ok := p.Bucket(h); ok {
		m.Bucket.Hour = int16(rep)
	}
	return m, p.version
}

// checkBucket returns ErrSpeedVersion when b names a version the graph
// does not hold.
func (g *Graph) checkBucket(b SpeedBucket) error {
	if b.changes() && g.speedProfile(b.Version) == nil {
		return fmt.Errorf("%w: %s (the graph holds %s)", ErrSpeedVersion, b.Version, g.heldVersions())
	}
	return nil
}

// bucketOverrides returns the dense per-directed-edge times (0:
// unchanged) of spec's bucket, nil without a bucket.
func (g *Graph) bucketOverrides(spec Metric) ([]uint32, error) {
	if err := g.checkBucket(spec.Bucket); err != nil || !spec.Bucket.changes() {
		return nil, err
	}
	p := g.speedProfile(spec.Bucket.Version)
	if p == nil {
		return nil, g.checkBucket(spec.Bucket)
	}
	c := p.hourClass[spec.Bucket.Hour]
	if c < 0 {
		return nil, nil
	}
	ov := make([]uint32, 2*len(g.edgeFrom))
	for _, et := range p.classes[c] {
		ov[et.d] = et.ms
	}
	return ov, nil
}

// heldVersions lists the held speed versions, newest first.
func (g *Graph) heldVersions() string {
	g.speedMu.Lock()
	defer g.speedMu.Unlock()
	var vs []string
	for _, p := range g.speedHeld {
		vs = append(vs, p.version)
	}
	if len(vs) == 0 {
		return "none"
	}
	return strings.Join(vs, ", ")
}

// Warm customizes m at hour h on the current speed profile when that
// needs a custom metric (what an update does for the metrics in use, so
// that the next order finds them ready).
func (g *Graph) Warm(ctx context.Context, m Metric, h int) error {
	mm, _ := g.AtHour(m, h)
	if _, plain := mm.hierarchy(); plain {
		return nil
	}
	_, err := g.customMetric(ctx, mm)
	return err
}
