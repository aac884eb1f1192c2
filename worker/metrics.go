package worker

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// Metrics are the matrix workers' Prometheus metrics: chunk latency,
// matrix cells computed, jobs that ended here by state, and chunk
// failures. A nil *Metrics records nothing.
type Metrics struct {
	chunkDuration prometheus.Histogram
	cells         prometheus.Counter
	jobsEnded     *prometheus.CounterVec
	chunkFailures *prometheus.CounterVec
	requeued      prometheus.Counter
}

// NewMetrics registers the workers' metrics with reg.
func NewMetrics(reg prometheus.Registerer) *Metrics {
	m := &Metrics{
		chunkDuration: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name:    "geosvc_tdm_chunk_duration_seconds",
			Help:    "Time to compute and store one chunk of origin rows of a matrix job.",
			Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30},
		}),
		cells: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "geosvc_tdm_cells_total",
			Help: "Matrix cells (origin x destination pairs) computed and stored.",
		}),
		jobsEnded: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "geosvc_tdm_jobs_ended_total",
			Help: "Matrix jobs this worker process moved to a final state, by state (Finished, Failed).",
		}, []string{"state"}),
		chunkFailures: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "geosvc_tdm_chunk_failures_total",
			Help: "Chunk runs that failed, by whether the chunk will be retried (retry) or its job failed (final).",
		}, []string{"outcome"}),
		requeued: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "geosvc_tdm_chunks_requeued_total",
			Help: "Chunks this worker's janitor enqueued again because the worker running them stopped (its heartbeat ran out).",
		}),
	}
	reg.MustRegister(m.chunkDuration, m.cells, m.jobsEnded, m.chunkFailures, m.requeued)
	return m
}

// chunkDone records a chunk computed in took, of cells cells, written when
// written (a rerun writes nothing), that finished its job when finished.
func (m *Metrics) chunkDone(took time.Duration, cells int, written, finished bool) {
	if m == nil {
		return
	}
	m.chunkDuration.Observe(took.Seconds())
	if written {
		m.cells.Add(float64(cells))
		if finished {
			m.jobsEnded.WithLabelValues("Finished").Inc()
		}
	}
}

// chunkFailed records a failed chunk run; final when its job fails.
func (m *Metrics) chunkFailed(final bool) {
	if m == nil {
		return
	}
	if final {
		m.chunkFailures.WithLabelValues("final").Inc()
		m.jobsEnded.WithLabelValues("Failed").Inc()
		return
	}
	m.chunkFailures.WithLabelValues("retry").Inc()
}

// swept records a janitor round: chunks enqueued again, jobs failed.
func (m *Metrics) swept(requeued, failed int) {
	if m == nil {
		return
	}
	m.requeued.Add(float64(requeued))
	m.jobsEnded.WithLabelValues("Failed").Add(float64(failed))
}
