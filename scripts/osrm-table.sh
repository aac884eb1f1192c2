#!/usr/bin/env bash
# Times OSRM's /table/v1/driving on the points of a `geosvc bench` run, for
# side-by-side figures (BENCHMARKS.md): reads a --points-out file (N origins
# then N destinations, one "lon,lat" line each), asks a running osrm-routed
# for the N x N table with annotations=duration,distance, RUNS times, and
# reports the first, median and best wall time per request as the client
# sees it (curl's time_total: connect, request, answer read in full), the
# same client-side measure as bench's "order -> result in hand".
#
#   geosvc bench --data DIR --n 1000 --points-out /tmp/p1000.txt
#   scripts/osrm-table.sh http://127.0.0.1:5000 /tmp/p1000.txt [RUNS]
#
# It never builds or starts OSRM. osrm-routed takes only GET (coordinates
# in the URL), so start it with --max-table-size >= 2N: that also sizes
# its request-line limit (48 bytes a location, see --max-header-size).
# The answer is asked for uncompressed (no Accept-Encoding), as bench
# reads geosvc's. RUNS defaults to 7. The first answer is checked: code
# Ok, N x N durations and distances; its null durations are counted.
set -euo pipefail
base=${1:?usage: $0 OSRM_URL POINTS_FILE [RUNS]}
points=${2:?usage: $0 OSRM_URL POINTS_FILE [RUNS]}
runs=${3:-7}
base=${base%/}

lines=$(grep -c . "$points")
if ((lines == 0 || lines % 2 != 0)); then
	echo "$points: $lines lines; want N origins then N destinations" >&2
	exit 2
fi
n=$((lines / 2))

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The URL goes through a curl config file: at 1000 x 1000 it is about
# 50 kB, near the kernel's limit on one command-line argument.
coords=$(grep . "$points" | tr -d ' \r' | paste -sd ';')
sources=$(seq -s ';' 0 $((n - 1)))
destinations=$(seq -s ';' "$n" $((2 * n - 1)))
url="$base/table/v1/driving/$coords?sources=$sources&destinations=$destinations&annotations=duration,distance"
printf 'url = "%s"\n' "$url" >"$tmp/curl.cfg"

times=()
for ((r = 1; r <= runs; r++)); do
	out=$(curl -sS -K "$tmp/curl.cfg" -o "$tmp/body.json" \
		-w '%{http_code} %{time_total} %{size_download}')
	read -r code total size <<<"$out"
	if [[ $code != 200 ]]; then
		echo "run $r: HTTP $code: $(head -c 300 "$tmp/body.json")" >&2
		exit 1
	fi
	if ((r == 1)); then
		body_size=$size
		check=$(python3 - "$tmp/body.json" "$n" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
n = int(sys.argv[2])
dur, dist = d.get("durations"), d.get("distances")
if d.get("code") != "Ok" or len(dur) != n or len(dist) != n \
        or any(len(r) != n for r in dur) or any(len(r) != n for r in dist):
    sys.exit("answer is not an Ok %d x %d table: code %s" % (n, n, d.get("code")))
nulls = sum(v is None for r in dur for v in r)
print("%d null durations (%.2f %%)" % (nulls, 100.0 * nulls / (n * n)))
EOF
		)
	fi
	times+=("$total")
done

url_bytes=${#url}
printf '%s\n' "${times[@]}" | sort -g | awk -v n="$n" -v runs="$runs" \
	-v first="${times[0]}" -v size="$body_size" -v check="$check" \
	-v urlb="$url_bytes" -v base="$base" '
{ v[NR] = $1 }
END {
	med = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
	printf "## OSRM /table: %d x %d, annotations=duration,distance\n\n", n, n
	printf "Server %s; GET, request line %d bytes; client-side curl time_total.\n\n", base, urlb
	printf "| measure | median of %d | first run | best |\n|---|---:|---:|---:|\n", runs
	printf "| request -> table in hand | %.1f ms | %.1f ms | %.1f ms |\n", med * 1000, first * 1000, v[1] * 1000
	printf "| body size, plain | %.1f MiB | | |\n", size / 1048576
	printf "\nChecked (first run): %s.\n", check
}'
