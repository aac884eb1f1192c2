#!/bin/sh
# HTTP load test of GET /geocoderv1/geocoder under wrk, rotating through
# $N seeded queries made from the bundle's own addresses, streets and
# places (geo/geocode SampleQueries: full, lower-case and typo address
# forms, "Street, Town").
#
#   geo/geocode/loadtest/run.sh
#
# Starts `bin/geosvc serve --data $DATA` on $ADDR with the rate limit off
# (unless URL and KEY point at a running server) and runs wrk with
# scripts/load/points.lua. Environment: DATA (data), ADDR
# (127.0.0.1:18091), N (10000), SEED (10000), THREADS (1), CONNS (32),
# DURATION (20s), WARMUP (5s), URL, KEY.
set -eu

DATA=${DATA:-data}
ADDR=${ADDR:-127.0.0.1:18091}
N=${N:-10000}
SEED=${SEED:-10000}
THREADS=${THREADS:-1}
CONNS=${CONNS:-32}
DURATION=${DURATION:-20s}
WARMUP=${WARMUP:-5s}
lua=scripts/load/points.lua
work=$(mktemp -d)
pid=

cleanup() {
	if [ -n "$pid" ]; then kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; fi
	rm -rf "$work"
}
trap cleanup EXIT INT TERM

go run ./geo/geocode/loadtest -data "$DATA" -n "$N" -seed "$SEED" >"$work/queries.txt"

if [ -z "${URL:-}" ]; then
	GEOSVC_RATE_LIMIT=${GEOSVC_RATE_LIMIT:-0} GEOSVC_LOG_LEVEL=${GEOSVC_LOG_LEVEL:-warn} \
		bin/geosvc serve --data "$DATA" --addr "$ADDR" >"$work/serve.log" 2>&1 &
	pid=$!
	URL=http://$ADDR
	i=0
	until curl -sf "$URL/readyz" >/dev/null 2>&1; do
		i=$((i + 1))
		if [ $i -gt 600 ] || ! kill -0 "$pid" 2>/dev/null; then
			cat "$work/serve.log" >&2
			echo "server not ready" >&2
			exit 1
		fi
		sleep 0.1
	done
	KEY=$(sed -n 's/^demo API key: //p' "$work/serve.log")
fi
: "${KEY:?KEY is required with URL}"

path='/geocoderv1/geocoder?address={x}'
echo "wrk: $URL$path, $(wc -l <"$work/queries.txt") queries, $THREADS threads, $CONNS connections, $DURATION (after a $WARMUP warm-up)"
wrk -t"$THREADS" -c"$CONNS" -d"$WARMUP" -s "$lua" "$URL" -- "$path" "$work/queries.txt" "$KEY" >/dev/null
wrk -t"$THREADS" -c"$CONNS" -d"$DURATION" --latency -s "$lua" "$URL" -- "$path" "$work/queries.txt" "$KEY"
