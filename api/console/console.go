// Package console holds the web console geosvc serves at /: a page, its
// script and stylesheet, and Leaflet (vendored from its npm package, with
// its licence), all embedded so that the console works offline and loads
// nothing from another host.
package console

import (
	"embed"
	"io/fs"
)

//go:generate sh update-leaflet.sh
//go:generate sh update-maplibre.sh
//go:generate sh update-maplibre-leaflet.sh

//go:embed assets
var assets embed.FS

// Files returns the console's files: index.html at the root, the rest
// beside it (console.js, console.css, vendor/leaflet/...).
func Files() fs.FS {
	sub, err := fs.Sub(assets, "assets")
	if err != nil {
		panic(err) // the directory is embedded above
	}
	return sub
}
