#!/usr/bin/env bash
# Runs `geosvc bench` against the split deployment: a redis-server, one
# `geosvc api` and WORKERS `geosvc worker --concurrency 1` processes, all
# on loopback, and reports their peak RSS (api, workers, redis-server).
#
#   scripts/bench-split.sh DATA_DIR [bench flags...]
#   e.g. scripts/bench-split.sh data/delaware-latest --n 5000 --runs 1
#
# Environment: GEOSVC (the binary, default ./bin/geosvc), WORKERS (2).
# Above 1000 locations the api gets --max-locations N and a body limit
# to match. Everything it starts is stopped at the end.
set -euo pipefail
data=${1:?usage: $0 DATA_DIR [bench flags...]}
shift
bin=${GEOSVC:-./bin/geosvc}
workers=${WORKERS:-2}
n=1000
args=("$@")
for ((i = 0; i < ${#args[@]}; i++)); do
	if [[ ${args[i]} == --n ]]; then n=${args[i + 1]}; fi
	if [[ ${args[i]} == --n=* ]]; then n=${args[i]#--n=}; fi
done
tmp=$(mktemp -d)
pids=()
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
	wait 2>/dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

rport=$(free_port)
redis-server --port "$rport" --bind 127.0.0.1 --dir "$tmp" --save '' --appendonly no >"$tmp/redis.log" 2>&1 &
rpid=$!
pids+=("$rpid")
export REDIS_URL="redis://127.0.0.1:$rport/0" GEOSVC_DATA="$data" GEOSVC_ADMIN_ADDR="" GEOSVC_LOG_LEVEL=warn
for _ in $(seq 50); do redis-cli -p "$rport" ping >/dev/null 2>&1 && break; sleep 0.1; done

key=gs_bench_split_$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
aport=$(free_port)
extra=()
if ((n > 1000)); then extra=(--max-locations "$n" --body-limit $((64 * n + 1048576))); fi
GEOSVC_DEMO_KEY=$key "$bin" api --addr "127.0.0.1:$aport" "${extra[@]}" >"$tmp/api.log" 2>&1 &
apid=$!
pids+=("$apid")
wpids=()
for i in $(seq "$workers"); do
	"$bin" worker --concurrency 1 >"$tmp/worker$i.log" 2>&1 &
	wpids+=($!)
	pids+=($!)
done
for _ in $(seq 600); do
	curl -sf "http://127.0.0.1:$aport/readyz" >/dev/null && break
	sleep 0.1
done
# The workers have loaded the graph once asynq lists their servers.
for _ in $(seq 600); do
	(($(redis-cli -p "$rport" zcard asynq:servers) >= workers)) && break
	sleep 0.1
done
rss=$(IFS=,; echo "$apid,${wpids[*]},$rpid")
echo "api $apid, workers ${wpids[*]}, redis-server $rpid"
"$bin" bench --url "http://127.0.0.1:$aport" --key "$key" --data "$data" --rss-pids "$rss" "$@"
