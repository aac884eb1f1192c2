package io.github.geosvc

import java.net.URLEncoder

/**
 * The map tiles of a [GeosvcClient] (tilesv1, docs/tilesv1.md): raster
 * tiles (PNG, WebP, @2x), vector tiles (Mapbox Vector Tile) with their
 * TileJSON, MapLibre style, sprite and glyphs, and tile tokens. Tiles take
 * the key or a token (a map view that must not hold the key); the
 * documents are public.
 */
abstract class TileCalls internal constructor(baseUrl: String, apiKey: String?, options: ClientOptions) : OsrmCalls(baseUrl, apiKey, options) {
    /** A token that opens map tiles for an hour in the key's name (tilesv1/token), for a map view that must not hold the key. */
    @JvmOverloads
    @Operation("tileToken")
    fun tileToken(cancel: CancellationToken? = null): TileToken {
        val o = ok(t.send("tile-token", "POST", "/tilesv1/token", emptyList(), ByteArray(0), cancel))
        return TileToken(o.string("token"), o.string("expires_at"))
    }

    /** The PNG of map tile z/x/y (tilesv1; XYZ web mercator, 256 px); with token, the key is not needed. */
    @JvmOverloads
    @Operation("tile")
    fun tile(z: Int, x: Int, y: Int, token: String? = null, cancel: CancellationToken? = null): ByteArray =
        tileImage(z, x, y, TileFormat.Png, token, cancel)

    /** The raster tile z/x/y in format: 256 px PNG or WebP, or 512 px (@2x) for high-density screens. */
    @JvmOverloads
    @Operation("tile", "tile2x", "tileWebP", "tile2xWebP")
    fun tileImage(z: Int, x: Int, y: Int, format: TileFormat, token: String? = null, cancel: CancellationToken? = null): ByteArray =
        bytes(t.get("tile", "/tilesv1/$z/$x/$y${format.suffix}", listOf("token" to token), cancel, format.mediaType))

    /**
     * The Mapbox Vector Tile z/x/y (tilesv1 .mvt; z 0..20, features of their
     * own to z14, deeper tiles overzoomed): its bytes inflated (the client
     * asks for gzip and inflates it), empty for a tile with no feature.
     */
    @JvmOverloads
    @Operation("vectorTile")
    fun vectorTile(z: Int, x: Int, y: Int, token: String? = null, cancel: CancellationToken? = null): VectorTile {
        val a = t.get("vector-tile", "/tilesv1/$z/$x/$y.mvt", listOf("token" to token), cancel, VectorTile.MEDIA_TYPE)
        val b = bytes(a)
        val type = a.header("Content-Type")
        if (type != null && !type.startsWith(VectorTile.MEDIA_TYPE))
            throw MalformedAnswerException("vector-tile: content type $type, want ${VectorTile.MEDIA_TYPE}")
        return VectorTile(z, x, y, b, type ?: VectorTile.MEDIA_TYPE, a.header("ETag"), "gzip".equals(a.header("Content-Encoding"), ignoreCase = true))
    }

    /** The vector tiles' TileJSON 3.0.0 (public); with token, its tile URL template carries it. */
    @JvmOverloads
    @Operation("vectorTileJSON")
    fun tileJson(token: String? = null, cancel: CancellationToken? = null): TileJson {
        val a = t.get("tiles-json", "/tilesv1/tiles.json", listOf("token" to token), cancel)
        return TileJson.of(ok(a), a.text)
    }

    /** The MapLibre style of the vector tiles (public): [MapStyle.text] is what MapLibre's Style.Builder().fromJson takes. */
    @JvmOverloads
    @Operation("vectorStyle")
    fun vectorStyle(token: String? = null, cancel: CancellationToken? = null): MapStyle {
        val a = t.get("style", "/tilesv1/style.json", listOf("token" to token), cancel)
        return MapStyle.of(ok(a), a.text)
    }

    /** The style's sprite index, icon name to its place in [spriteImage]; ratio2x: the high-density one. */
    @JvmOverloads
    @Operation("vectorSpriteIndex", "vectorSpriteIndex2x")
    fun spriteIndex(ratio2x: Boolean = false, cancel: CancellationToken? = null): Map<String, SpriteIcon> {
        val o = ok(t.get("sprite-index", "/tilesv1/sprite${if (ratio2x) "@2x" else ""}.json", emptyList(), cancel))
        return o.map.keys.associateWith { SpriteIcon.of(o.obj(it)) }
    }

    /** The style's sprite PNG; ratio2x: drawn at twice the size. */
    @JvmOverloads
    @Operation("vectorSprite", "vectorSprite2x")
    fun spriteImage(ratio2x: Boolean = false, cancel: CancellationToken? = null): ByteArray =
        bytes(t.get("sprite", "/tilesv1/sprite${if (ratio2x) "@2x" else ""}.png", emptyList(), cancel, "image/png"))

    /**
     * The glyphs of code points start..end (at most 256 of them, MapLibre
     * asks for 0-255, 256-511...) of the first font of fontstack geosvc
     * has ("Go Regular", "Go Bold", "Go Italic", "Go Bold Italic"; a
     * comma-separated stack): the PBF glyphs message MapLibre reads.
     */
    @JvmOverloads
    @Operation("vectorGlyphs")
    fun glyphs(fontstack: String, start: Int, end: Int, cancel: CancellationToken? = null): ByteArray {
        val seg = URLEncoder.encode(fontstack, "UTF-8").replace("+", "%20")
        return bytes(t.get("glyphs", "/tilesv1/fonts/$seg/$start-$end.pbf", emptyList(), cancel, "application/x-protobuf"))
    }
}
