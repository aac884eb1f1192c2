#!/bin/sh
# Vendors Leaflet from its npm package into assets/vendor/leaflet: the
# minified script, its stylesheet, marker and layer images and its licence
# (BSD-2-Clause). Run by `go generate ./api/console`; needs npm.
set -eu
version=1.9.4
sha256=84c65a256e50657896f54c33bd857b6849ebe94c817803be818bf32a3dde0b77
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
npm pack --silent "leaflet@$version" >/dev/null
echo "$sha256  leaflet-$version.tgz" | sha256sum -c - >/dev/null
tar xzf "leaflet-$version.tgz"
dst="$here/assets/vendor/leaflet"
rm -rf "$dst"
mkdir -p "$dst/images"
cp package/dist/leaflet.js package/dist/leaflet.css package/LICENSE "$dst/"
cp package/dist/images/*.png "$dst/images/"
echo "vendored leaflet $version into $dst"
