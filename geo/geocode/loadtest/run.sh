#!/bin/sh
# HTTP load test of GET /geocoderv1/geocoder under wrk, rotating through
# $N seeded queries made from the bundle's own addresses, streets and
# places (geo/geocode SampleQueries: full, lower-case and typo address
# forms, "Street, Town").
#
#   geo/geocode/loadtest/run.sh
#
# Writes the queries, then hands them to scripts/load/run.sh, which starts
# `bin/geosvc serve --data $DATA` on $ADDR with the rate limit off (unless
# URL and KEY point at a running server) and runs wrk. Environment: DATA (data), ADDR
# (127.0.0.1:18091), N (10000), SEED (10000), THREADS (1), CONNS (32),
# DURATION (20s), WARMUP (5s), URL, KEY.
set -eu

DATA=${DATA:-data}
N=${N:-10000}
SEED=${SEED:-10000}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM

go run ./geo/geocode/loadtest -data "$DATA" -n "$N" -seed "$SEED" >"$work/queries.txt"
POINTS="$work/queries.txt" ADDR=${ADDR:-127.0.0.1:18091} DATA="$DATA" \
	sh scripts/load/run.sh '/geocoderv1/geocoder?address={x}'
