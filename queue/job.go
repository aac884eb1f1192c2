package queue

import (
	"strings"
	"time"

	"github.com/paulmach/orb"
)

// Status is the state of a TDM job.
type Status string

// The job states. Queued and Processing are running states; the other three
// are terminal.
const (
	StatusQueued     Status = "Queued"
	StatusProcessing Status = "Processing"
	StatusFinished   Status = "Finished"
	StatusFailed     Status = "Failed"
	StatusCancelled  Status = "Cancelled"
)

// Terminal reports whether s is Finished, Failed or Cancelled.
func (s Status) Terminal() bool {
	return s == StatusFinished || s == StatusFailed || s == StatusCancelled
}

// Outputs is the set of matrices a job was asked for.
type Outputs uint8

// The matrices a job can produce.
const (
	// OutDuration is the travel-time matrix in seconds.
	OutDuration Outputs = 1 << iota
	// OutDistance is the travel-distance matrix in metres.
	OutDistance

	// OutBoth asks for both matrices.
	OutBoth = OutDuration | OutDistance
)

// Has reports whether every output in x is in o.
func (o Outputs) Has(x Outputs) bool { return o&x == x }

// String lists the outputs, e.g. "duration,distance".
func (o Outputs) String() string {
	var parts []string
	if o.Has(OutDuration) {
		parts = append(parts, "duration")
	}
	if o.Has(OutDistance) {
		parts = append(parts, "distance")
	}
	return strings.Join(parts, ",")
}

// Order is a validated matrix order, ready to be submitted.
type Order struct {
	// Owner is the id of the API key the job belongs to.
	Owner string
	// Routing is what the routes minimise: the canonical key of a
	// routing.Metric (routing.Metric.String), stored as it is and
	// parsed by the workers.
	Routing string
	// Outputs are the matrices wanted; zero means both.
	Outputs Outputs
	// Origins and Destinations are the addresses exactly as sent; fetch
	// echoes them.
	Origins, Destinations []string
	// OriginPoints and DestinationPoints are the parsed coordinates, in the
	// same order as Origins and Destinations.
	OriginPoints, DestinationPoints []orb.Point
	// Bundle is the id of the data bundle the job is computed on (the one
	// the ordering process serves; bundle.Bundle.ID): workers compute
	// every chunk on it, after a swap too.
	Bundle string
	// Options are the snapping and fallback options (zero: none).
	Options Options
	// Profile is the routing profile whose graph the job is computed on
	// ("bicycle", "foot"; "" or "car": the car's).
	Profile string
	// Departure is the order's departure time as resolved, RFC 3339
	// local to the first origin, and TimeZone that zone (IANA): fetch
	// echoes them. Both "" for an order without a departure time.
	Departure, TimeZone string
}

// Job is the stored state of a matrix job, without its addresses and
// results (see Result).
type Job struct {
	// ID is the job's uuid.
	ID string
	// Owner is the id of the API key that ordered it.
	Owner string
	// Status is the current state.
	Status Status
	// Routing is what the routes minimise (see Order.Routing).
	Routing string
	// Outputs are the matrices asked for.
	Outputs Outputs
	// Rows and Cols are the numbers of origins and destinations.
	Rows, Cols int
	// Chunks is the number of chunks; ChunkRows the origin rows per chunk
	// (the last chunk may hold fewer).
	Chunks, ChunkRows int
	// RowsDone is the number of origin rows whose chunk is written.
	RowsDone int
	// Created, Started and Finished are the times the job was ordered, its
	// first chunk was taken, and it reached a terminal state (zero when not
	// yet).
	Created, Started, Finished time.Time
	// Message explains a Failed job.
	Message string
	// Bundle is the id of the data bundle the job is computed on ("" for
	// a job ordered before jobs recorded it).
	Bundle string
	// Departure and TimeZone are the order's (Order.Departure): "" for
	// an order without a departure time, or a job ordered before jobs
	// recorded them.
	Departure, TimeZone string
}

// Spec is what a worker needs to compute a job's chunks.
type Spec struct {
	// ID is the job's uuid.
	ID string
	// Routing is what the routes minimise (see Order.Routing); the worker
	// parses it with routing.ParseMetric.
	Routing string
	// Outputs are the matrices to store.
	Outputs Outputs
	// Chunks is the number of chunks; ChunkRows the origin rows per chunk.
	Chunks, ChunkRows int
	// Origins and Destinations are the job's coordinates.
	Origins, Destinations []orb.Point
	// Bundle is the id of the data bundle to compute on ("": the one the
	// worker serves).
	Bundle string
	// Options are the job's snapping and fallback options (zero for a job
	// ordered without them, or before they were stored).
	Options Options
	// Profile is the routing profile whose graph computes the job: ""
	// for the car (every record written before profiles, and every car
	// order), else "bicycle" or "foot".
	Profile string
}

// ChunkRange returns the origin rows [lo, hi) of chunk i.
func (s *Spec) ChunkRange(i int) (lo, hi int) {
	return ChunkRange(len(s.Origins), s.ChunkRows, i)
}
