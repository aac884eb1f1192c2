package queue

import "strconv"

// keyspace names the Redis keys of jobs. Every key of one job carries the
// job id as a hash tag, so a job lives in one Redis Cluster slot and the Lua
// scripts may touch all of its keys.
type keyspace struct{ prefix string }

// job is the hash holding the job record.
func (k keyspace) job(id string) string { return k.prefix + ":{" + id + "}:job" }

// done is the set of indexes of the chunks written so far.
func (k keyspace) done(id string) string { return k.prefix + ":{" + id + "}:done" }

// results is the hash of chunk blobs, fields named by chunkField.
func (k keyspace) results(id string) string { return k.prefix + ":{" + id + "}:res" }

// ended is the pub/sub channel on which the job's end (Finished, Failed,
// Cancelled) is announced; the scripts that end a job derive it from the
// job key, so the two must stay in step.
func (k keyspace) ended(id string) string { return k.prefix + ":{" + id + "}:end" }

// tombstone outlives the job and holds its owner, so that a fetch after
// expiry can answer 410.
func (k keyspace) tombstone(id string) string { return k.prefix + ":{" + id + "}:gone" }

// Kind selects one blob of a chunk's result.
type Kind byte

// The blobs stored per chunk.
const (
	// KindDuration holds the chunk's durations in seconds, its rows as
	// JSON text (EncodeRows).
	KindDuration Kind = 'T'
	// KindDistance holds the chunk's distances in metres, its rows as
	// JSON text (EncodeRows).
	KindDistance Kind = 'D'
	// KindOriginSnap holds, per origin row of the chunk, how far the origin
	// was moved to the road in metres (float32; NotSnapped if it could not
	// be snapped).
	KindOriginSnap Kind = 's'
	// KindEstimated holds the chunk's cells filled by the fallback speed,
	// [row, column] pairs as JSON text (EncodePairs); only a job with a
	// fallback speed has it.
	KindEstimated Kind = 'E'
)

// chunkField is the field of the results hash that holds kind for chunk i.
func chunkField(kind Kind, i int) string {
	return string(kind) + ":" + strconv.Itoa(i)
}
