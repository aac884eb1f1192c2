// Package queue owns the time-distance matrix (TDM) job: its model and
// states, the Redis layout that holds job records and chunk results, the
// asynq task that carries one chunk of origin rows, and the chunking rule.
//
// A job moves Queued -> Processing -> Finished | Failed | Cancelled. Submit
// writes the job record (with a retention TTL and a longer-lived tombstone so
// that a fetch after expiry can say so) and enqueues one task per chunk.
// Workers call Begin, Spec and PutChunk; each chunk's result is written once
// (the chunk index is added to a set of done chunks and its blobs stored only
// when it was absent, in one Lua script), and the job is Finished when the
// number of distinct done chunks reaches the total. Progress is derived from
// that set too, so retries, duplicate deliveries and crashed workers never
// double-count or lose a row.
//
// Results are stored as compact little-endian int32 blobs, one per chunk and
// matrix, so that the HTTP layer can stream a finished 1000 x 1000 job
// without building it in memory.
package queue
