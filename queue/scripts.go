package queue

import "github.com/redis/go-redis/v9"

// infoScript reads a job's record and its progress in one round trip.
// KEYS: job, done, tombstone. Returns {"ok", done, lastDone, fields...},
// {"gone", owner} when only the tombstone is left, or {"none"}.
var infoScript = redis.NewScript(`
local v = redis.call('HMGET', KEYS[1], 'owner', 'status', 'metric', 'outputs',
  'rows', 'cols', 'chunks', 'chunk_rows', 'created', 'started', 'finished', 'message', 'bundle',
  'departure', 'time_zone')
if not v[2] then
  local o = redis.call('GET', KEYS[3])
  if o then return {'gone', o} end
  return {'none'}
end
local n = redis.call('SCARD', KEYS[2])
local last = redis.call('SISMEMBER', KEYS[2], tostring(tonumber(v[7]) - 1))
local out = {'ok', n, last}
for i = 1, 15 do out[#out + 1] = v[i] or '' end
return out
`)

// beginScript is run when a worker takes a chunk: it moves a Queued job to
// Processing and tells whether the chunk still needs computing.
// KEYS: job, done. ARGV: chunk index, now (Unix ms).
// Returns "gone", "done" (chunk already written) or the job's status.
var beginScript = redis.NewScript(`
local st = redis.call('HGET', KEYS[1], 'status')
if not st then return 'gone' end
if st == 'Queued' then
  redis.call('HSET', KEYS[1], 'status', 'Processing', 'started', ARGV[2])
  st = 'Processing'
end
if st == 'Processing' and redis.call('SISMEMBER', KEYS[2], ARGV[1]) == 1 then
  return 'done'
end
return st
`)

// putScript writes one chunk's result once and finishes the job when every
// chunk is in, announcing it on the job's end channel (keyspace.ended). The chunk index goes into the done set; only when it was
// absent are the blobs written (HSETNX), so a rerun changes nothing. The job
// is Finished when the set's cardinality reaches the chunk count.
// KEYS: job, done, results. ARGV: chunk index, now (Unix ms), destination
// snapping blob, then field, blob pairs.
// Returns {status, written (0|1)} or {"gone", 0}.
var putScript = redis.NewScript(`
local st = redis.call('HGET', KEYS[1], 'status')
if not st then return {'gone', 0} end
if st ~= 'Queued' and st ~= 'Processing' then return {st, 0} end
if redis.call('SADD', KEYS[2], ARGV[1]) == 0 then return {st, 0} end
for i = 4, #ARGV, 2 do redis.call('HSETNX', KEYS[3], ARGV[i], ARGV[i + 1]) end
redis.call('HSETNX', KEYS[1], 'snap_d', ARGV[3])
local exp = redis.call('HGET', KEYS[1], 'expires')
redis.call('PEXPIREAT', KEYS[2], exp)
redis.call('PEXPIREAT', KEYS[3], exp)
if redis.call('SCARD', KEYS[2]) >= tonumber(redis.call('HGET', KEYS[1], 'chunks')) then
  redis.call('HSET', KEYS[1], 'status', 'Finished', 'finished', ARGV[2])
  redis.call('PUBLISH', (string.gsub(KEYS[1], ':job$', ':end')), 'Finished')
  return {'Finished', 1}
end
if st == 'Queued' then
  redis.call('HSET', KEYS[1], 'status', 'Processing', 'started', ARGV[2])
end
return {'Processing', 1}
`)

// endScript moves a running job to a terminal state (Cancelled or Failed)
// and leaves a terminal one alone; the results written so far are dropped
// and the end is announced on the job's end channel. KEYS: job, results. ARGV: new status, now (Unix ms), message.
// Returns the status after the call, or "gone".
var endScript = redis.NewScript(`
local st = redis.call('HGET', KEYS[1], 'status')
if not st then return 'gone' end
if st ~= 'Queued' and st ~= 'Processing' then return st end
redis.call('HSET', KEYS[1], 'status', ARGV[1], 'finished', ARGV[2], 'message', ARGV[3])
redis.call('DEL', KEYS[2])
redis.call('PUBLISH', (string.gsub(KEYS[1], ':job$', ':end')), ARGV[1])
return ARGV[1]
`)
