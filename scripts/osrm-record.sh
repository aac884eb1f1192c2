#!/usr/bin/env bash
# Records OSRM's own answers to the requests of
# api/testdata/osrmref/requests.tsv, as api/testdata/osrmref/DATASET.json,
# for TestOSRMReference (api/osrm_reference_test.go), which sends the same
# requests to geosvc and compares the answers field by field.
#
#   OSRM_BIN=/path/to/osrm/build OSRM_PROFILE=/path/to/osrm/profiles/car.lua \
#     scripts/osrm-record.sh [DATASET ...]
#
# It never builds OSRM: OSRM_BIN is a directory holding osrm-extract,
# osrm-contract and osrm-routed of an OSRM built elsewhere (the recorded
# files were made with OSRM v26.4.1, its tag's tree built in Release mode,
# and that tag's own profiles/car.lua, unchanged). For each data set
# (default: every one the requests name) it runs, in a scratch directory:
#
#   osrm-extract -p $OSRM_PROFILE DATA        (DATA: a copy of the file)
#   osrm-contract DATA.osrm                   (CH)
#   osrm-routed -a CH -i 127.0.0.1 -p PORT $LIMITS DATA.osrm
#
# with LIMITS FIXTURE_LIMITS below for routing/testdata's fixtures (small,
# so that the TooBig answers are reached with few coordinates; the test
# serves geosvc with the same) and OSRM's defaults for Delaware; then
# GETs each request (curl, no Accept-Encoding) and writes the HTTP status
# and the JSON body. osrm-routed listens on loopback only and is stopped
# when its data set is done.
#
# Data: routing/testdata/NAME.osm (hand-made), and delaware-latest.osm.pbf
# of the github.com/paulmach/osm module (the same file as
# shared/data/osm/delaware-latest.osm.pbf). OSM data (c) OpenStreetMap
# contributors, ODbL.
set -euo pipefail

bin=${OSRM_BIN:?set OSRM_BIN to the directory of osrm-extract, osrm-contract and osrm-routed}
profile=${OSRM_PROFILE:?set OSRM_PROFILE to profiles/car.lua of OSRM}
port=${OSRM_PORT:-5055}
repo=$(cd "$(dirname "$0")/.." && pwd)
refdir=$repo/api/testdata/osrmref
requests=$refdir/requests.tsv

FIXTURE_LIMITS=(--max-viaroute-size 4 --max-trip-size 4 --max-table-size 4
	--max-nearest-size 3 --max-matching-size 4 --max-alternatives 2)

version=$("$bin/osrm-routed" --version | tr -d '\r' | tail -1)
profile_sha=$(sha256sum "$profile" | cut -d' ' -f1)

datasets=("$@")
if ((${#datasets[@]} == 0)); then
	mapfile -t datasets < <(grep -v '^#' "$requests" | cut -f1 | awk 'NF && !seen[$0]++')
fi

# OSRM_WORK keeps the extracted data between runs (an extract or
# contraction already there, newer than its input, is not made again).
work=${OSRM_WORK:-$(mktemp -d)}
keep=${OSRM_WORK:+yes}
routed=""
cleanup() {
	if [[ -n $routed ]]; then kill "$routed" 2>/dev/null || true; fi
	if [[ -z $keep ]]; then rm -rf "$work"; fi
}
trap cleanup EXIT

input_of() {
	case $1 in
	delaware) echo "$(cd "$repo" && go list -m -f '{{.Dir}}' github.com/paulmach/osm)/testdata/delaware-latest.osm.pbf" ;;
	*.osm) echo "$repo/routing/testdata/$1" ;;
	*) echo "unknown data set $1" >&2; return 1 ;;
	esac
}

for ds in "${datasets[@]}"; do
	src=$(input_of "$ds")
	dir=$work/${ds%.osm}
	mkdir -p "$dir"
	base=$(basename "$src")
	[[ -f $dir/$base && ! $src -nt $dir/$base ]] || cp "$src" "$dir/$base"
	data=$dir/${base%%.osm*}
	echo "== $ds: $src" >&2
	limits=()
	[[ $ds == *.osm ]] && limits=("${FIXTURE_LIMITS[@]}")
	if [[ ! -f $data.osrm.ebg || $dir/$base -nt $data.osrm.ebg ]]; then
		"$bin/osrm-extract" -p "$profile" "$dir/$base" >"$dir/extract.log" 2>&1
	fi
	if [[ ! -f $data.osrm.hsgr || $data.osrm.ebg -nt $data.osrm.hsgr ]]; then
		"$bin/osrm-contract" "$data.osrm" >"$dir/contract.log" 2>&1
	fi
	DISABLE_ACCESS_LOGGING=1 "$bin/osrm-routed" -a CH -i 127.0.0.1 -p "$port" "${limits[@]}" "$data.osrm" >"$dir/routed.log" 2>&1 &
	routed=$!
	for _ in $(seq 100); do
		curl -s -o /dev/null "http://127.0.0.1:$port/nearest/v1/driving/0,0" && break
		sleep 0.2
	done
	: >"$dir/answers.jsonl"
	while IFS=$'\t' read -r set name path; do
		[[ $set == "$ds" ]] || continue
		status=$(curl -s -o "$dir/body" -w '%{http_code}' "http://127.0.0.1:$port$path")
		if ! jq -e . "$dir/body" >/dev/null 2>&1; then
			# Not JSON (a tile, say): kept as a string.
			jq -Rs '{raw: .}' "$dir/body" >"$dir/body.json" && mv "$dir/body.json" "$dir/body"
		fi
		jq -c --arg name "$name" --arg path "$path" --argjson status "$status" \
			'{name: $name, request: $path, status: $status, body: .}' "$dir/body" >>"$dir/answers.jsonl"
	done < <(grep -v '^#' "$requests")
	kill "$routed" && wait "$routed" 2>/dev/null || true
	routed=""
	out=$refdir/${ds%.osm}.json
	jq -s --arg version "$version" --arg profile "car.lua of OSRM $version (sha256 $profile_sha)" \
		--arg data "$(basename "$src")" --arg limits "${limits[*]:-the defaults of OSRM}" \
		--arg recorded "$(date -u +%Y-%m-%dT%H:%M:%SZ)" \
		'{osrm_version: $version, profile: $profile, data: $data, algorithm: "CH",
		  routed_limits: $limits, recorded: $recorded, recorded_by: "scripts/osrm-record.sh",
		  answers: .}' "$dir/answers.jsonl" >"$out"
	echo "   $(jq '.answers | length' "$out") answers -> ${out#"$repo"/}" >&2
done
