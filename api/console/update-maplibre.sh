#!/bin/sh
# Vendors MapLibre GL JS from its npm package into assets/vendor/maplibre-gl:
# the CSP build (its script and its worker, which the page loads from
# geosvc itself: no blob: worker, no CDN), its stylesheet and its licence
# (BSD-3-Clause). Run by `go generate ./api/console`; needs npm.
set -eu
version=5.13.0
sha256=8f4de80e9db051cddb137ce1616c51bbbd1274be1c9b24a1c41f8ece2207af42
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
npm pack --silent "maplibre-gl@$version" >/dev/null
echo "$sha256  maplibre-gl-$version.tgz" | sha256sum -c - >/dev/null
tar xzf "maplibre-gl-$version.tgz"
dst="$here/assets/vendor/maplibre-gl"
rm -rf "$dst"
mkdir -p "$dst"
cp package/dist/maplibre-gl-csp.js package/dist/maplibre-gl-csp-worker.js package/dist/maplibre-gl.css package/LICENSE.txt "$dst/"
# The source map comments name files not vendored.
sed -i '/^\/\/# sourceMappingURL=/d' "$dst/maplibre-gl-csp.js" "$dst/maplibre-gl-csp-worker.js"
echo "vendored maplibre-gl $version into $dst"
