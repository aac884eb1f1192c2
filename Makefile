# geosvc: the two commands a user needs are `make run` and `make test`.

GO           ?= go
BIN          ?= bin/geosvc
# The default data set: the Delaware extract shipped in the testdata of the
# github.com/paulmach/osm module. Any OSM extract (.osm.pbf, .osm, .osm.bz2,
# .osm.gz) works: make run OSM=path.
OSM_MODULE   := github.com/paulmach/osm
OSM          ?=
# The bundle directory: DATA=, else $GEOSVC_DATA, else data/<the extract's
# file name without its extensions> (data/delaware-latest by default), so
# that bundles of different extracts never overwrite each other.
DATA         ?=
OSM_FILE      = $(if $(OSM),$(OSM),$(shell $(GO) mod download $(OSM_MODULE) && $(GO) list -m -f '{{.Dir}}' $(OSM_MODULE))/testdata/delaware-latest.osm.pbf)
EXTRACT_NAME  = $(shell basename '$(OSM_FILE)' | sed -E 's/(\.osm)?(\.pbf|\.bz2|\.gz)?$$//')
BUNDLE        = $(or $(DATA),$(GEOSVC_DATA),data/$(EXTRACT_NAME))
VERSION      ?= $(shell git describe --always --dirty 2>/dev/null || echo dev)
LDFLAGS      := -X main.version=$(VERSION)
TEST_TIMEOUT ?= 20m
STATICCHECK  ?= honnef.co/go/tools/cmd/staticcheck@v0.8.2
FUZZTIME     ?= 10s
BENCH_ARGS   ?=
# load: which lookup `make load` drives (admin, geoboundaries, tz, or a
# request path with {x} and {y} placeholders).
LOAD         ?= admin

.PHONY: all build data run test race vet bench bench-scale fuzz load load-swaps clean sdk sdk-check sdk-vet sdk-test

all: build

## build: compile bin/geosvc
build:
	$(GO) build -ldflags "$(LDFLAGS)" -o $(BIN) ./cmd/geosvc

## data: build the data bundle in $(BUNDLE) unless it is up to date (same
## bundle version as bin/geosvc, same source file size and sha256)
data: build
	$(BIN) build --osm "$(OSM_FILE)" --out "$(BUNDLE)" --if-stale

## run: build what is missing or stale, then serve on :8080 (prints the URL
## and the demo API key; Ctrl-C stops it gracefully)
run: data
	$(BIN) serve --data "$(BUNDLE)"

## vet: the module is tidy (go mod tidy -diff), the code gofmt-formatted,
## go vet and staticcheck (pinned, fetched through the module proxy) clean
vet:
	$(GO) mod tidy -diff
	@unformatted=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$unformatted" ]; then echo "gofmt: not formatted:" $$unformatted; exit 1; fi
	$(GO) vet ./...
	$(GO) run $(STATICCHECK) ./...
	$(MAKE) sdk-vet

## test: make vet, then every test (REDIS_URL selects a real Redis; without it
## the tests use an embedded one), then make race, then the SDKs' (make
## sdk-test)
test: vet
	$(GO) test -timeout $(TEST_TIMEOUT) ./...
	$(MAKE) race
	$(MAKE) sdk-test

# The race detector's share of make test: the packages whose code runs
# goroutines (the queue, the workers, the API and the key gate) whole,
# and of routing the tests of its parallel paths on small fixtures (a
# graph's hierarchies built side by side, customization and many-to-many
# tables on several workers, the metric cache's concurrent callers): the
# whole of routing under -race takes over five minutes.
RACE_PKGS        ?= ./queue/... ./worker/... ./api/... ./keys/...
# Each name (a regexp) must match a test of its package, so that a renamed
# test fails here instead of silently leaving the race run.
RACE_ROUTING     ?= TestFixtureRoutes TestCCHFixtureRoutes TestMetricFixtures TestMetricCache TestAlternativesFixture TestSaveLoadRoundTrip TestBestOrder.*
RACE_ROUTING_CCH ?= TestWorkersAgree TestTableMatchesPointToPoint TestCancel
RACE_ROUTING_CH  ?= TestBucketsMatchPointToPoint TestRowSweepMatchesDijkstra

## race: the tests of the concurrent packages under the race detector
## (RACE_PKGS whole, routing's parallel-path tests)
race:
	$(GO) test -race -timeout $(TEST_TIMEOUT) $(RACE_PKGS)
	@set -e; for spec in './routing:$(RACE_ROUTING)' './routing/cch:$(RACE_ROUTING_CCH)' './routing/ch:$(RACE_ROUTING_CH)'; do \
		pkg=$${spec%%:*}; names=$${spec#*:}; \
		list=$$($(GO) test -list . $$pkg); \
		for n in $$names; do \
			echo "$$list" | grep -Eq "^($$n)$$" || { echo "race: no test $$n in $$pkg (renamed? update RACE_ROUTING*)" >&2; exit 1; }; \
		done; \
		re=$$(echo $$names | tr ' ' '|'); \
		echo "$(GO) test -race -timeout $(TEST_TIMEOUT) -run '^($$re)$$' $$pkg"; \
		$(GO) test -race -timeout $(TEST_TIMEOUT) -run "^($$re)\$$" $$pkg; \
	done

## sdk: regenerate the SDKs' generated layers from api/openapi.yaml
## (sdk/go/openapi by oapi-codegen, sdk/js/src/schema.ts by
## openapi-typescript; both pinned; needs Go and npm)
sdk:
	GO=$(GO) sh sdk/generate.sh

## sdk-check: fail when api/openapi.yaml changed but `make sdk` was not run
sdk-check:
	GO=$(GO) sh sdk/generate.sh --check

## sdk-vet: the Go SDK module (sdk/go) tidy, vetted and staticcheck clean
sdk-vet:
	cd sdk/go && $(GO) mod tidy -diff && $(GO) vet ./... && $(GO) run $(STATICCHECK) ./...

## sdk-test: the generated code is current, then the Go SDK's tests and,
## through them, the TypeScript SDK's (npm ci, node --test) and the Kotlin
## SDK's (sdk/kotlin/build.sh: kotlinc, then java), against a
## geosvc serve they start on data/delaware-latest (built when stale)
sdk-test: sdk-check
	cd sdk/go && $(GO) test -timeout $(TEST_TIMEOUT) ./...

## bench: Go benchmarks, then the end-to-end `geosvc bench`
bench: data
	$(GO) test -run '^$$' -bench . -benchmem -timeout 30m ./...
	$(BIN) bench --data "$(BUNDLE)" $(BENCH_ARGS)

## bench-scale: country-scale figures on Delaware tiled K x K
## (scripts/scaletile; K=12 is about 10 M routing vertices): build time and
## peak RSS, serve start-up and RSS after load, 100 x 100 and 1000 x 1000
## matrices (needs osmium-tool)
K ?= 4
bench-scale: build
	GEOSVC=$(BIN) bash scripts/bench-scale.sh $(K)

## fuzz: run every Fuzz target for FUZZTIME each
fuzz:
	@set -e; for pkg in $$($(GO) list ./...); do \
		for f in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz' || true); do \
			echo "fuzz $$pkg $$f"; \
			$(GO) test -run '^$$' -fuzz "^$$f$$" -fuzztime $(FUZZTIME) $$pkg; \
		done; \
	done

## load: wrk load test of a point lookup against `geosvc serve` on the
## bundle (10,000 seeded points rotated by scripts/load/points.lua);
## LOAD=admin (default), geoboundaries, tz, tiles (10,000 seeded map tiles
## of zoom 12..16: drawn, then cached), mvt (the same as vector tiles,
## gzip) or a path; installs Debian's wrk
## with apt-get when it is missing
load: data
	@command -v wrk >/dev/null 2>&1 || { \
		sudo=; [ "$$(id -u)" = 0 ] || sudo=sudo; \
		$$sudo apt-get update && $$sudo apt-get install -y wrk; }
	@case "$(LOAD)" in \
	admin) p='/adminv1/xy2admininfo?x={x}&y={y}&type=admin8' ;; \
	geoboundaries) p='/geoboundariesv1/xy2bounddata?x={x}&y={y}' ;; \
	tiles) p=tiles ;; \
	mvt) p=mvt ;; \
	*) p='$(LOAD)' ;; \
	esac; \
	DATA="$(BUNDLE)" sh scripts/load/run.sh "$$p"

## load-swaps: wrk load (routev1) against `geosvc serve` while its bundle
## directory, a symlink, is repointed 10 times between two builds: every
## request must succeed (scripts/load/swaps.sh)
load-swaps: data
	@command -v wrk >/dev/null 2>&1 || { \
		sudo=; [ "$$(id -u)" = 0 ] || sudo=sudo; \
		$$sudo apt-get update && $$sudo apt-get install -y wrk; }
	DATA="$(BUNDLE)" sh scripts/load/swaps.sh

clean:
	rm -rf bin
