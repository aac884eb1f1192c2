package queue

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/geosvc/geosvc/routing"
)

// PointOptions are how one origin or destination of a job snaps to the
// road: OSRM's per-coordinate radiuses, bearings and approaches. The zero
// value is the default rule.
type PointOptions struct {
	// RadiusM is the snapping radius in metres; 0 is the deployment's
	// default.
	RadiusM float64 `json:"r,omitempty"`
	// Bearing is [value, range] in degrees when set: the road's direction
	// of travel must lie within value ± range.
	Bearing *[2]float64 `json:"b,omitempty"`
	// Curb asks for the kerb-side approach.
	Curb bool `json:"c,omitempty"`
}

// SnapOptions returns p as routing's snapping options, with OSRM's
// snapping=any when snapAny.
func (p PointOptions) SnapOptions(snapAny bool) routing.SnapOptions {
	o := routing.SnapOptions{RadiusM: p.RadiusM, Curb: p.Curb, Any: snapAny}
	if p.Bearing != nil {
		o.HasBearing, o.BearingDeg, o.RangeDeg = true, p.Bearing[0], p.Bearing[1]
	}
	return o
}

// Options are a job's snapping and fallback options; the zero value is a
// job without any (every job ordered before they existed).
type Options struct {
	// SnapAny lets points snap to roads of any component (OSRM's
	// snapping=any).
	SnapAny bool `json:"any,omitempty"`
	// Origins and Destinations are per point, nil or as long as the
	// job's points.
	Origins      []PointOptions `json:"o,omitempty"`
	Destinations []PointOptions `json:"d,omitempty"`
	// FallbackKmh, when positive, fills a cell without a route with the
	// great-circle distance between its points at this speed, and lists
	// it among the estimated cells.
	FallbackKmh float64 `json:"fallback_kmh,omitempty"`
	// FallbackSnapped measures that distance between the snapped points
	// (where they snapped) rather than the input ones.
	FallbackSnapped bool `json:"fallback_snapped,omitempty"`
}

// IsZero reports whether o holds no option.
func (o *Options) IsZero() bool {
	return !o.SnapAny && o.Origins == nil && o.Destinations == nil && o.FallbackKmh == 0 && !o.FallbackSnapped
}

// encodeOptions is the stored form of o: JSON, "" for no options (a
// record without the field reads the same).
func encodeOptions(o Options) (string, error) {
	if o.IsZero() {
		return "", nil
	}
	b, err := json.Marshal(o)
	return string(b), err
}

// decodeOptions reads the stored form of a job's options; "" (a job
// without options, or one ordered before they were stored) is none.
func decodeOptions(s string, rows, cols int) (Options, error) {
	var o Options
	if s == "" {
		return o, nil
	}
	if err := json.Unmarshal([]byte(s), &o); err != nil {
		return o, err
	}
	if (o.Origins != nil && len(o.Origins) != rows) || (o.Destinations != nil && len(o.Destinations) != cols) {
		return o, fmt.Errorf("options for %d origins and %d destinations of a %d x %d job", len(o.Origins), len(o.Destinations), rows, cols)
	}
	return o, nil
}

// EncodePairs returns the estimated cells of a chunk, each [row, column]
// of the whole matrix, as the JSON text of the pairs separated by commas
// and without brackets around them, so that chunks join with a comma:
// "[0,3],[2,1]" ("" for none).
func EncodePairs(pairs [][2]int) []byte {
	b := make([]byte, 0, 12*len(pairs))
	for k, p := range pairs {
		if k > 0 {
			b = append(b, ',')
		}
		b = append(b, '[')
		b = strconv.AppendInt(b, int64(p[0]), 10)
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(p[1]), 10)
		b = append(b, ']')
	}
	return b
}

// DecodePairs is the inverse of EncodePairs.
func DecodePairs(b []byte) ([][2]int, error) {
	if len(b) == 0 {
		return nil, nil
	}
	var pairs [][2]int
	if err := json.Unmarshal(append(append([]byte{'['}, b...), ']'), &pairs); err != nil {
		return nil, fmt.Errorf("queue: estimated cells: %w", err)
	}
	return pairs, nil
}
