package api

import "strings"

// tileVariant is how a tile is drawn besides the 256 px PNG, as its
// path's last segment says: {y}@2x.png is the 512 px tile of a
// high-density screen, {y}.webp and {y}@2x.webp the same as lossless
// WebP. The zero value is the 256 px PNG.
type tileVariant struct {
	scale int // 0: 1
	webp  bool
}

// cutTileVariant cuts a variant's suffix off the y segment of a tile
// path, leaving "{y}.png" for parseTile: "6252@2x.webp" is "6252.png"
// at scale 2 in WebP. A segment of no variant is returned as it is.
func cutTileVariant(ys string) (string, tileVariant) {
	var v tileVariant
	if base, ok := strings.CutSuffix(ys, ".webp"); ok {
		v.webp = true
		ys = base + ".png"
	}
	if base, ok := strings.CutSuffix(ys, "@2x.png"); ok {
		v.scale = 2
		ys = base + ".png"
	}
	return ys, v
}

// suffix is the variant's suffix of a tile's cache key.
func (v tileVariant) suffix() string {
	s := ""
	if v.scale == 2 {
		s = "@2x"
	}
	if v.webp {
		s += ".webp"
	}
	return s
}

// contentType is the media type of the variant's image.
func (v tileVariant) contentType() string {
	if v.webp {
		return "image/webp"
	}
	return "image/png"
}
