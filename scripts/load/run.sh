#!/bin/sh
# Load test of a point-lookup endpoint under wrk (Debian package wrk).
#
#   scripts/load/run.sh [ENDPOINT]
#
# ENDPOINT is tz (/timezonesv1/xy2tzdata, default), tiles (/tilesv1: $N
# seeded tiles of zoom 12..16 in $BBOX, a first pass on tiles never drawn,
# then a pass over the same tiles from the cache), mvt (the same with
# vector tiles, .mvt, gzip unless ACCEPT_ENCODING says otherwise) or a
# request path with
# {x} and {y} placeholders. It starts `bin/geosvc serve --data $DATA` on
# $ADDR (unless URL and KEY point at a running server), waits for /readyz,
# writes $N seeded points (fixed seed, uniform in $BBOX) and runs wrk.
#
# Environment: DATA (data), ADDR (127.0.0.1:18090), N (10000),
# BBOX ("minlon minlat maxlon maxlat", default Delaware), SEED (42),
# THREADS (1), CONNS (32), DURATION (20s), WARMUP (5s), URL, KEY, and
# POINTS: a prepared file of "x y" lines to use instead of random points
# (the geocoder's load test passes its queries this way; world-wide land
# points: go run ./scripts/load/landpoints > FILE), and ACCEPT_ENCODING,
# sent as the Accept-Encoding header (e.g. gzip).
set -eu

endpoint=${1:-tz}
case $endpoint in
tz) path='/timezonesv1/xy2tzdata?x={x}&y={y}' ;;
tiles) path='/tilesv1/{z}/{x}/{y}.png' ;;
mvt)
	path='/tilesv1/{z}/{x}/{y}.mvt'
	export ACCEPT_ENCODING="${ACCEPT_ENCODING-gzip}"
	;;
*) path=$endpoint ;;
esac

DATA=${DATA:-data}
ADDR=${ADDR:-127.0.0.1:18090}
N=${N:-10000}
BBOX=${BBOX:-"-75.79 38.45 -75.05 39.84"}
SEED=${SEED:-42}
THREADS=${THREADS:-1}
CONNS=${CONNS:-32}
DURATION=${DURATION:-20s}
WARMUP=${WARMUP:-5s}
here=$(dirname "$0")
work=$(mktemp -d)
pid=

cleanup() {
	if [ -n "$pid" ]; then kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; fi
	rm -rf "$work"
}
trap cleanup EXIT INT TERM

if [ -z "${URL:-}" ]; then
	if curl -s -o /dev/null "http://$ADDR/healthz" 2>/dev/null; then
		echo "$ADDR is in use by another server: set ADDR (or URL and KEY to test that one)" >&2
		exit 1
	fi
	# The per-key rate limit (1000/s by default) would answer most of the
	# load with 429: the test measures the lookup, so it is off unless
	# GEOSVC_RATE_LIMIT says otherwise.
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
	if [ -z "$KEY" ]; then
		cat "$work/serve.log" >&2
		echo "no demo API key in the server's output" >&2
		exit 1
	fi
fi
: "${KEY:?KEY is required with URL}"

if [ "$endpoint" = tiles ] || [ "$endpoint" = mvt ]; then
	# $N distinct seeded web-mercator tiles "x y z" of zoom 12..16 over
	# the box (drawn from 5 x $N candidates: the box holds few z12 tiles).
	awk -v n="$((5 * N))" -v seed="$SEED" -v bbox="$BBOX" 'BEGIN {
		split(bbox, b, " "); srand(seed); pi = atan2(0, -1)
		for (i = 0; i < n; i++) {
			z = 12 + int(rand() * 5); lon = b[1] + rand() * (b[3] - b[1]); lat = b[2] + rand() * (b[4] - b[2])
			r = lat * pi / 180; m = 2 ^ z
			printf "%d %d %d\n", int((lon + 180) / 360 * m), int((1 - log(sin(r) / cos(r) + 1 / cos(r)) / pi) / 2 * m), z
		}
	}' | sort -u | awk -v seed="$SEED" 'BEGIN { srand(seed) } { print rand(), $0 }' | sort -k1,1 | cut -d" " -f2- | head -n "$N" >"$work/points.txt"
	N=$(wc -l <"$work/points.txt")
elif [ -n "${POINTS:-}" ]; then
	cp "$POINTS" "$work/points.txt"
	N=$(wc -l <"$work/points.txt")
else
	awk -v n="$N" -v seed="$SEED" -v bbox="$BBOX" 'BEGIN {
		split(bbox, b, " "); srand(seed)
		for (i = 0; i < n; i++) printf "%.6f %.6f\n", b[1] + rand() * (b[3] - b[1]), b[2] + rand() * (b[4] - b[2])
	}' >"$work/points.txt"
fi

first=$(head -1 "$work/points.txt")
set -- $first
probe=$(echo "$path" | sed "s/{x}/$1/; s/{y}/$2/; s/{z}/${3:-}/")
code=$(curl -s -o "$work/probe.json" -w '%{http_code}' -H "x-api-key: $KEY" "$URL$probe")
if [ "$code" != 200 ]; then
	echo "probe $probe: HTTP $code: $(cat "$work/probe.json")" >&2
	exit 1
fi

if [ "$endpoint" = tiles ] || [ "$endpoint" = mvt ]; then
	# Uncached: the first seconds of a pass over tiles never drawn (the
	# probe drew one); then warm the cache over every tile, then cached.
	echo "wrk: $URL$path, $N distinct tiles, $THREADS threads, $CONNS connections"
	echo "first pass (tiles drawn on demand), 10s:"
	wrk -t"$THREADS" -c"$CONNS" -d10s --latency -s "$here/points.lua" "$URL" -- "$path" "$work/points.txt" "$KEY"
	echo "warming the cache with every tile ..."
	for _ in 1 2 3; do
		wrk -t"$THREADS" -c"$CONNS" -d20s -s "$here/points.lua" "$URL" -- "$path" "$work/points.txt" "$KEY" >/dev/null
	done
	echo "second pass (cached), $DURATION:"
	wrk -t"$THREADS" -c"$CONNS" -d"$DURATION" --latency -s "$here/points.lua" "$URL" -- "$path" "$work/points.txt" "$KEY"
	exit 0
fi

echo "wrk: $URL$path, $N points, $THREADS threads, $CONNS connections, $DURATION (after a $WARMUP warm-up)"
wrk -t"$THREADS" -c"$CONNS" -d"$WARMUP" -s "$here/points.lua" "$URL" -- "$path" "$work/points.txt" "$KEY" >/dev/null
wrk -t"$THREADS" -c"$CONNS" -d"$DURATION" --latency -s "$here/points.lua" "$URL" -- "$path" "$work/points.txt" "$KEY"
