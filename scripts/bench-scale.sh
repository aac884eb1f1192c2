#!/usr/bin/env bash
# Country-scale figures on a tiling of a real extract (docs/scale.md,
# BENCHMARKS.md): makes the K x K tiling (scripts/scaletile, once per K),
# builds its bundle under /usr/bin/time -v (wall time, peak RSS), starts
# `geosvc serve` on it to read the RSS after load and the start-up time,
# then runs `geosvc bench` for 100 x 100 and 1000 x 1000 with points spread
# over the whole network.
#
#   scripts/bench-scale.sh K        (make bench-scale K=4)
#
# Environment: GEOSVC (the binary, default ./bin/geosvc), SCALE_DIR (where
# tilings and bundles go, default /tmp/geosvc-scale), RUNS (bench runs,
# default 5), SKIP_BENCH=1 (build and load only).
set -euo pipefail
k=${1:?usage: $0 K}
bin=${GEOSVC:-./bin/geosvc}
dir=${SCALE_DIR:-/tmp/geosvc-scale}
runs=${RUNS:-5}
mkdir -p "$dir"
pbf="$dir/delaware-${k}x${k}.osm.pbf"
data="$dir/delaware-${k}x${k}"
if [[ ! -s $pbf ]]; then
	go run ./scripts/scaletile -k "$k" -out "$pbf"
fi
echo "== build $pbf"
/usr/bin/time -v "$bin" build --osm "$pbf" --out "$data" --if-stale >"$dir/build-$k.log" 2>"$dir/build-$k.time" || {
	cat "$dir/build-$k.log" "$dir/build-$k.time" >&2
	exit 1
}
grep -E '^(read |network|wrote bundle|layer [a-z0-9]+: .* KB)' "$dir/build-$k.log" || true
grep -E 'Elapsed \(wall|Maximum resident' "$dir/build-$k.time"
du -sh "$data"

echo "== serve: start-up and RSS after load"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
GEOSVC_ADMIN_ADDR= GEOSVC_LOG_LEVEL=warn "$bin" serve --data "$data" --addr "127.0.0.1:$port" >"$dir/serve-$k.log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null || true' EXIT
start=$(date +%s.%N)
until curl -fs "http://127.0.0.1:$port/readyz" >/dev/null 2>&1; do
	kill -0 $pid 2>/dev/null || { cat "$dir/serve-$k.log" >&2; exit 1; }
	sleep 0.05
done
ready=$(date +%s.%N)
sleep 1
awk '/VmRSS|VmHWM/' /proc/$pid/status
echo "ready after $(python3 -c "print(round($ready-$start, 2))") s"
kill $pid
wait $pid 2>/dev/null || true
trap - EXIT

if [[ ${SKIP_BENCH:-} == 1 ]]; then exit 0; fi
echo "== bench"
GEOSVC_ADMIN_ADDR= "$bin" bench --data "$data" --n 100 --runs "$runs"
GEOSVC_ADMIN_ADDR= "$bin" bench --data "$data" --n 1000 --runs "$runs"
