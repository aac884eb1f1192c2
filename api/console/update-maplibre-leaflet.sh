#!/bin/sh
# Vendors @maplibre/maplibre-gl-leaflet (MapLibre's binding that draws a
# MapLibre GL map as a Leaflet layer: the console's vector base map under
# its Leaflet overlays) into assets/vendor/maplibre-gl-leaflet, with its
# licence (ISC). Run by `go generate ./api/console`; needs npm.
set -eu
version=0.1.4
sha256=5b9a6fef107b387610dc01c76aa469f3a1d9201a138b1cc5357d7bb8eb34d452
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
npm pack --silent "@maplibre/maplibre-gl-leaflet@$version" >/dev/null
echo "$sha256  maplibre-maplibre-gl-leaflet-$version.tgz" | sha256sum -c - >/dev/null
tar xzf "maplibre-maplibre-gl-leaflet-$version.tgz"
dst="$here/assets/vendor/maplibre-gl-leaflet"
rm -rf "$dst"
mkdir -p "$dst"
cp package/leaflet-maplibre-gl.js package/LICENSE "$dst/"
echo "vendored @maplibre/maplibre-gl-leaflet $version into $dst"
