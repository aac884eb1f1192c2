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
# Dover, which reads the routing graph; admin for the boundary layer).
# Environment: DATA (the bundle, default data/delaware-latest), SWAPS (10),
# DURATION (30s), ADDR (127.0.0.1:18091) and run.sh's.
set -eu

endpoint=${1:-'/routev1/route?from={x},{y}&to=-75.5244,39.1582'}
case $endpoint in
admin) endpoint='/adminv1/xy2admininfo?x={x}&y={y}&type=admin8' ;;
esac
DATA=${DATA:-data/delaware-latest}
SWAPS=${SWAPS:-10}
DURATION=${DURATION:-30s}
ADDR=${ADDR:-127.0.0.1:18091}
here=$(dirname "$0")
work=$(mktemp -d)
pid=
cleanup() {
	if [ -n "$pid" ]; then kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; fi
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

secs=${DURATION%s}
# Swap every secs/(SWAPS+1) seconds, starting after the warm-up.
(
	sleep 5
	n=0
	while [ $n -lt "$SWAPS" ]; do
		sleep "$(awk -v d="$secs" -v n="$SWAPS" 'BEGIN { printf "%.2f", d / (n + 1) }')"
		n=$((n + 1))
		target=$a
		[ $((n % 2)) -eq 1 ] && target=$b
		ln -sfn "$target" "$work/data.tmp" && mv -T "$work/data.tmp" "$work/data"
	done
) &
swapper=$!

URL=http://$ADDR KEY=$KEY DURATION=$DURATION WARMUP=5s sh "$here/run.sh" "$endpoint"
wait $swapper
sleep 1
echo "swaps the server made: $(grep -c 'data bundle swapped' "$work/serve.log")"
grep 'data bundle swapped' "$work/serve.log" | sed 's/.*took=/took=/' | tr '\n' ' '
echo
