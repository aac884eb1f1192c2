// Package worker runs TDM chunk tasks: an asynq server whose handler takes
// one chunk of origin rows of a matrix job, computes it on the routing graph
// and stores it through package queue.
//
// A worker keeps, per job, the snapped origins and destinations and the
// destination-side buckets (routing.Targets) in a ristretto cache bounded in
// bytes, so that a worker taking several chunks of one job snaps the points
// and builds the buckets once; concurrent chunks of one job wait for a
// single build.
package worker
