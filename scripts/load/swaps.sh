#!/bin/sh
# Load test across bundle swaps (docs/operations.md, "New data without
# downtime"): `geosvc serve --data LINK` where LINK is a symlink to a
# bundle; while wrk drives a lookup, LINK is repointed SWAPS times between
# the bundle and a second build of it (a copy whose manifest says another
# build time: another bundle id, the same data). Prints wrk's figures
# (any failed request shows as "Non-2xx or 3xx responses" or socket
# errors) and the swaps the server logged.
#
#   scripts/load/swaps.sh [ENDPOINT]     (make load-swaps)
#
# ENDPOINT as scripts/load/run.sh's (default: routev1 from each point to
# Dover, which reads the routing graph, with the points in the built-up
# north of Delaware, where each has a road within the snapping radius:
# elsewhere a point at sea is a 404 "no road"; admin for the boundary
# layer). A swap is made, then awaited (/v1/info says the new id) before
# the next, one a second at most.
# Environment: DATA (the bundle, default data/delaware-latest), SWAPS (10),
# DURATION (60s: long enough for the swaps), ADDR (127.0.0.1:18091),
# BBOX (the points' box) and run.sh's.
set -eu

endpoint=${1:-'/routev1/route?from={x},{y}&to=-75.5244,39.1582'}
case $endpoint in
admin) endpoint='/adminv1/xy2admininfo?x={x}&y={y}&type=admin8' ;;
esac
DATA=${DATA:-data/delaware-latest}
SWAPS=${SWAPS:-10}
DURATION=${DURATION:-60s}
BBOX=${BBOX:-"-75.75 39.62 -75.52 39.78"}
export BBOX
ADDR=${ADDR:-127.0.0.1:18091}
here=$(dirname "$0")
work=$(mktemp -d)
pid=
cleanup() {
	if [ -n "$pid" ]; then kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; fi
	[ -n "${KEEP:-}" ] && cp "$work/serve.log" "$KEEP"
	rm -rf "$work"
}
trap cleanup EXIT INT TERM

[ -f "$DATA/manifest.json" ] || { echo "no bundle in $DATA: make data" >&2; exit 1; }
a=$(cd "$DATA" && pwd)
b=$work/bundle-b
mkdir "$b"
# Links to the same files (a second build of the same data in every
# respect but its manifest's build time, hence its id).
for f in "$a"/*; do ln -s "$f" "$b/$(basename "$f")"; done
rm "$b/manifest.json"
sed 's/"built_at": "\([^"]*\)"/"built_at": "2000-01-01T00:00:00Z"/' "$a/manifest.json" >"$b/manifest.json"
ln -s "$a" "$work/data"

GEOSVC_RATE_LIMIT=0 GEOSVC_LOG_LEVEL=info GEOSVC_ADMIN_ADDR= GEOSVC_DATA_RELOAD=200ms \
	bin/geosvc serve --data "$work/data" --addr "$ADDR" >"$work/serve.log" 2>&1 &
pid=$!
i=0
until curl -sf "http://$ADDR/readyz" >/dev/null 2>&1; do
	i=$((i + 1))
	if [ $i -gt 600 ] || ! kill -0 "$pid" 2>/dev/null; then
		cat "$work/serve.log" >&2
		exit 1
	fi
	sleep 0.1
done
KEY=$(sed -n 's/^demo API key: //p' "$work/serve.log")

id() { curl -sf -H "x-api-key: $KEY" "http://$ADDR/v1/info" | sed -n 's/.*"id":"\([0-9a-f]*\)".*/\1/p'; }
# Repoint the link, then wait for the server to serve the new build.
(
	sleep 8
	n=0
	while [ $n -lt "$SWAPS" ]; do
		n=$((n + 1))
		before=$(id)
		target=$a
		[ $((n % 2)) -eq 1 ] && target=$b
		ln -sfn "$target" "$work/data.tmp" && mv -T "$work/data.tmp" "$work/data"
		i=0
		while [ "$(id)" = "$before" ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
		sleep 1
	done
) &
swapper=$!

URL=http://$ADDR KEY=$KEY DURATION=$DURATION WARMUP=5s sh "$here/run.sh" "$endpoint"
wait $swapper
sleep 1
# The load's answers (not the /readyz polls while the server started).
grep ' msg=http ' "$work/serve.log" | grep -v 'path=/readyz' >"$work/answers.log" || true
echo "answers by status (the server's access log): $(sed -n 's/.* status=\([0-9]*\) .*/\1/p' "$work/answers.log" | sort | uniq -c | tr -s ' ' | tr '\n' ';')"
echo "server errors (5xx) during the load: $(grep -c ' status=5[0-9][0-9] ' "$work/answers.log" || true)"
echo "swaps the server made: $(grep -c 'data bundle swapped' "$work/serve.log")"
grep 'data bundle swapped' "$work/serve.log" | sed 's/.*took=/took=/' | tr '\n' ' '
echo
