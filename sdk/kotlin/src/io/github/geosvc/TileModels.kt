package io.github.geosvc

/** The raster tiles' forms: 256 px PNG or lossless WebP, and 512 px (@2x) of each for high-density screens. */
enum class TileFormat(internal val suffix: String, internal val mediaType: String) {
    Png(".png", "image/png"), Png2x("@2x.png", "image/png"), WebP(".webp", "image/webp"), WebP2x("@2x.webp", "image/webp")
}

/**
 * A vector tile: [bytes] the Mapbox Vector Tile 2.1 protobuf, inflated
 * (empty: a tile with no feature), [contentType]
 * application/vnd.mapbox-vector-tile, [etag] the server's, [gzipped]
 * whether it came gzip-compressed (inflated by the client).
 */
class VectorTile(val z: Int, val x: Int, val y: Int, val bytes: ByteArray, val contentType: String, val etag: String?, val gzipped: Boolean) {
    val isEmpty: Boolean get() = bytes.isEmpty()

    companion object {
        /** The media type of a Mapbox Vector Tile. */
        const val MEDIA_TYPE = "application/vnd.mapbox-vector-tile"
    }
}

/** A vector layer of a TileJSON: its id, zooms and fields (name to a description of its type and values). */
data class VectorLayer(val id: String, val description: String?, val minzoom: Int, val maxzoom: Int, val fields: Map<String, String>)

/**
 * The vector tiles' TileJSON 3.0.0: [tiles] the URL templates
 * ("{z}/{x}/{y}.mvt"), [bounds] the world's (the tiles around the
 * extract hold the world base layer), [extractBounds] the extract's box,
 * [center] longitude, latitude and zoom, the zooms with features of their
 * own, the layers; [text] the document as sent.
 */
class TileJson(
    val tilejson: String, val name: String?, val attribution: String?, val scheme: String?, val tiles: List<String>,
    val bounds: Bounds, val extractBounds: Bounds?, val center: List<Double>?, val minzoom: Int, val maxzoom: Int,
    val vectorLayers: List<VectorLayer>, val raw: JsonObject, val text: String
) {
    internal companion object {
        fun of(o: JsonObject, text: String) = TileJson(o.string("tilejson"), o.stringOrNull("name"), o.stringOrNull("attribution"),
            o.stringOrNull("scheme"), o.strings("tiles"), Bounds.lonFirst(o, "bounds") ?: Bounds(-180.0, -85.0511287798066, 180.0, 85.0511287798066),
            Bounds.lonFirst(o, "extract_bounds"), if (o.has("center")) o.doubles("center") else null, o.intOrNull("minzoom") ?: 0,
            o.intOrNull("maxzoom") ?: 30, if (!o.has("vector_layers")) emptyList() else o.objects("vector_layers").map { l ->
                val f = l.objOrNull("fields")
                VectorLayer(l.string("id"), l.stringOrNull("description"), l.intOrNull("minzoom") ?: 0, l.intOrNull("maxzoom") ?: 30,
                    f?.map?.keys?.associateWith { f.string(it) } ?: emptyMap())
            }, o, text)
    }
}

/**
 * A MapLibre style (version 8): its sources and layers, the sprite and
 * glyphs URLs; [text] the document as sent (MapLibre's
 * `Style.Builder().fromJson(text)`).
 */
class MapStyle(val version: Int, val name: String?, val sprite: String?, val glyphs: String?, val sources: JsonObject, val layers: List<JsonObject>,
               val raw: JsonObject, val text: String) {
    internal companion object {
        fun of(o: JsonObject, text: String) = MapStyle(o.int("version"), o.stringOrNull("name"), o.stringOrNull("sprite"), o.stringOrNull("glyphs"),
            o.obj("sources"), o.objects("layers"), o, text)
    }
}

/** An icon's place in the sprite image, in pixels, and the image's pixel ratio. */
data class SpriteIcon(val x: Int, val y: Int, val width: Int, val height: Int, val pixelRatio: Int) {
    internal companion object {
        fun of(o: JsonObject) = SpriteIcon(o.int("x"), o.int("y"), o.int("width"), o.int("height"), o.int("pixelRatio"))
    }
}
