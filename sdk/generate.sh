#!/bin/sh
# Regenerates the SDKs' generated layers from api/openapi.yaml (make sdk):
#   sdk/go/openapi/openapi.gen.go  oapi-codegen, pinned below
#   sdk/js/src/schema.ts           openapi-typescript, pinned in sdk/js/package.json
# With --check (make sdk-check, part of make test) it generates into a
# temporary directory and fails when the committed files differ: someone
# changed api/openapi.yaml (or a generator's configuration or version)
# without running `make sdk`.
# Both generators are deterministic: same inputs, same bytes.
set -eu
cd "$(dirname "$0")/.."

OAPI_CODEGEN=github.com/oapi-codegen/oapi-codegen/v2/cmd/oapi-codegen@v2.8.2
GO=${GO:-go}
check=
[ "${1:-}" = --check ] && check=1

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# Go: the configuration beside the generated file, writing into $out.
sed "s|^output:.*|output: $out/openapi.gen.go|" sdk/go/openapi/oapi-codegen.yaml >"$out/oapi-codegen.yaml"
"$GO" run "$OAPI_CODEGEN" -config "$out/oapi-codegen.yaml" api/openapi.yaml

# TypeScript: the package's pinned openapi-typescript (npm ci first when
# node_modules is missing or older than package-lock.json).
ts=1
if ! command -v npm >/dev/null 2>&1; then
	msg="sdk: npm is not installed (Node 18+ and npm generate the TypeScript SDK's types)"
	# A check on a developer's machine without Node skips the TypeScript
	# half; under CI=true, and when regenerating, it is an error.
	if [ -n "$check" ] && [ "${CI:-}" != true ] && [ "${CI:-}" != 1 ]; then
		echo "$msg: TypeScript check skipped" >&2
		ts=
	else
		echo "$msg" >&2
		exit 1
	fi
fi
if [ -n "$ts" ]; then
if [ ! -f sdk/js/node_modules/.package-lock.json ] || [ sdk/js/package-lock.json -nt sdk/js/node_modules/.package-lock.json ]; then
	(cd sdk/js && npm ci --no-audit --no-fund >/dev/null)
fi
(cd sdk/js && npx --no-install openapi-typescript ../../api/openapi.yaml --default-non-nullable false -o "$out/schema.ts" >/dev/null 2>&1) ||
	(cd sdk/js && npx --no-install openapi-typescript ../../api/openapi.yaml --default-non-nullable false -o "$out/schema.ts")
fi

if [ -z "$check" ]; then
	cp "$out/openapi.gen.go" sdk/go/openapi/openapi.gen.go
	cp "$out/schema.ts" sdk/js/src/schema.ts
	echo "sdk: regenerated sdk/go/openapi/openapi.gen.go and sdk/js/src/schema.ts from api/openapi.yaml"
	exit 0
fi
status=0
pairs="openapi.gen.go:sdk/go/openapi/openapi.gen.go"
[ -n "$ts" ] && pairs="$pairs schema.ts:sdk/js/src/schema.ts"
for pair in $pairs; do
	set -- "${pair%%:*}" "${pair#*:}"
	if ! cmp -s "$out/$1" "$2"; then
		echo "sdk: $2 is not what api/openapi.yaml generates: run 'make sdk' and commit the result" >&2
		diff -u "$2" "$out/$1" | head -40 >&2 || true
		status=1
	fi
done
[ $status = 0 ] && echo "sdk: generated code matches api/openapi.yaml"
exit $status
