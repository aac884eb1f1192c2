package io.github.geosvc.tests

import io.github.geosvc.ApiException
import io.github.geosvc.GeosvcClient
import io.github.geosvc.Json
import io.github.geosvc.JsonObject
import io.github.geosvc.LookupLayer
import io.github.geosvc.LookupResult
import io.github.geosvc.OsrmErrorCode
import io.github.geosvc.OsrmException
import io.github.geosvc.Point
import io.github.geosvc.TileFormat
import java.io.ByteArrayInputStream
import java.net.HttpURLConnection
import java.net.URL
import java.util.zip.GZIPInputStream
import javax.imageio.ImageIO

/**
 * The live server's lookupsv1 batch, vector tiles and their documents,
 * raster tile forms, OSRM's nearest, match and trip, and the service's
 * own operations, each against the REST answer fetched by hand or the
 * single lookups (GEOSVC_TEST_URL and GEOSVC_TEST_KEY, as LiveTests).
 */
object LiveMoreTests {
    private val dover = Point(-75.5244, 39.1582)
    private val wilmington = Point(-75.5466, 39.7447)
    private val newark = Point(-75.7527, 39.6837)
    private val trace = listOf(Point(-75.56176, 39.73006), Point(-75.56144, 39.73433), Point(-75.55803, 39.73910),
        Point(-75.55200, 39.73770), Point(-75.54893, 39.73866), Point(-75.54518, 39.74606))

    private val key: String get() = System.getenv("GEOSVC_TEST_KEY") ?: ""
    private fun url(): String = System.getenv("GEOSVC_TEST_URL") ?: T.skip("GEOSVC_TEST_URL is not set (sdk/go's TestKotlinSDK sets it)")
    private fun client(k: String = key) = GeosvcClient(url(), k)

    /** A request by hand: status, Content-Type, Content-Encoding and the body as sent (not inflated). */
    private class Raw(val status: Int, val type: String?, val encoding: String?, val body: ByteArray) {
        val json: JsonObject get() = JsonObject.of(Json.parse(String(body, Charsets.UTF_8)))
    }

    private fun raw(method: String, path: String, k: String? = key, body: Any? = null, accept: String? = null, gzip: Boolean = false): Raw {
        val c = URL(url().trimEnd('/') + path).openConnection() as HttpURLConnection
        c.requestMethod = method
        if (k != null) c.setRequestProperty("x-api-key", k)
        if (accept != null) c.setRequestProperty("Accept", accept)
        c.setRequestProperty("Accept-Encoding", if (gzip) "gzip" else "identity")
        if (body != null) {
            c.doOutput = true
            c.setRequestProperty("Content-Type", "application/json")
            c.outputStream.use { it.write(Json.write(body).toByteArray()) }
        }
        val st = c.responseCode
        val b = (if (st >= 400) c.errorStream else c.inputStream)?.use { it.readBytes() } ?: ByteArray(0)
        val r = Raw(st, c.contentType, c.contentEncoding, b)
        c.disconnect()
        return r
    }

    private fun slippy(p: Point, z: Int): Pair<Int, Int> {
        val n = Math.pow(2.0, z.toDouble())
        val lat = Math.toRadians(p.lat)
        return ((p.lon + 180) / 360 * n).toInt() to ((1 - Math.log(Math.tan(lat) + 1 / Math.cos(lat)) / Math.PI) / 2 * n).toInt()
    }

    /** m without the members named (a collection's generation time, which differs between two requests). */
    private fun without(m: Map<String, Any?>, vararg names: String): Map<String, Any?> = m.filterKeys { it !in names }

    private fun coords(ps: List<Point>) = ps.joinToString(";") { it.toString() }

    fun register() {
        T.test("LiveLookupsBatch") {
            val c = client()
            val july = "1784116800" // 15 July 2026 12:00 UTC
            val bombayHook = Point(-75.47, 39.26)
            val pts = listOf(dover, wilmington, Point(200.0, 39.0), bombayHook)
            val all = LookupLayer.values().toList()
            val rs = c.lookupsBatch(pts, all, july)
            T.eq(rs.map { it.index to it.status }, listOf(0 to 200, 1 to 200, 2 to 400, 3 to 200), "indexes and statuses")
            T.check(rs[2].message?.contains("points[2].x") == true && !rs[2].ok) { "bad point: ${rs[2].message}" }
            val d = rs[0]
            T.eq(d.layerErrors, emptyMap<String, Any>(), "Dover's layer errors")
            // Each layer equals the single lookup at the point (the Go tests' values).
            val tz = c.timeZoneAt(dover, july.toLong())
            T.eq(d.timezone?.name, "America/New_York", "Dover's zone (time_zone_id)")
            T.eq(d.timezone?.raw?.map, tz.raw.map, "timezone layer against xy2tzdata")
            T.eq(d.timezone?.raw?.longOrNull("dst_offset_s"), 3600L, "DST in July")
            val h = c.adminHierarchy(dover)
            T.eq(d.admin?.map { it.map }, h.map { it.map }, "admin layer against xy2hierarchy")
            T.check(d.admin?.any { it.stringOrNull("name") == "Kent County" } == true) { "no Kent County: ${d.admin?.map { it.stringOrNull("name") }}" }
            T.eq(d.zip4?.areas?.map { it.zip9 }, c.zip4(dover).areas.map { it.zip9 }, "zip4 layer against xy2zip")
            T.eq(d.zip4?.areas?.firstOrNull()?.zip9, "199010936", "Dover's ZIP+4")
            T.eq(d.geoBoundaries, c.geoBoundaries(dover), "geoboundaries layer against xy2bounddata")
            T.eq(d.covid, c.covidAt(dover, "admin8"), "covid layer against xy2data?admin=8")
            T.eq(rs[1].admin?.map { it.map }, c.adminHierarchy(wilmington).map { it.map }, "Wilmington's admin layer")
            T.eq(rs[3].geoBoundaries, c.geoBoundaries(bombayHook), "Bombay Hook's geoboundaries layer")
            T.eq(rs[3].geoBoundaries?.firstOrNull()?.name, "Bombay Hook National Wildlife Refuge", "Bombay Hook")
            // The same batch by hand: the same answer, member for member (but the collections' generation times).
            val byHand = raw("POST", "/lookupsv1/batch", body = mapOf("points" to pts.map { mapOf("x" to it.lon, "y" to it.lat) },
                "layers" to all.map { it.name.toLowerCase() }, "timestamp" to july))
            T.eq(byHand.status, 200, "REST status")
            val want = byHand.json.objects("results")
            fun norm(r: JsonObject) = r.map.mapValues { (k, v) -> if (k == "admin" && v is Map<*, *>) without(@Suppress("UNCHECKED_CAST") (v as Map<String, Any?>), "timeStamp") else v }
            T.eq(rs.map { norm(it.raw) }, want.map { norm(it) }, "SDK batch against REST")
            // Streamed (NDJSON, gzip): the same results, in order, one at a time.
            val streamed = ArrayList<LookupResult>()
            val n = c.lookupsBatchStream(pts, all, july) { streamed.add(it) }
            T.eq(n, 4, "streamed count")
            T.eq(streamed.map { norm(it.raw) }, rs.map { norm(it.raw) }, "streamed against the JSON answer")
            val e = T.throws<ApiException>("no layers") { c.lookupsBatch(pts, emptyList()) }
            T.check(e.isValidation && e.fields.any { it.field == "layers" }) { "no layers: ${e.message} ${e.fields}" }
        }
        T.test("LiveVectorTiles") {
            val c = client()
            val (x, y) = slippy(dover, 14)
            val vt = c.vectorTile(14, x, y)
            val plain = raw("GET", "/tilesv1/14/$x/$y.mvt")
            T.eq(plain.status, 200, "REST status")
            T.check(vt.bytes.contentEquals(plain.body)) { "tile 14/$x/$y: ${vt.bytes.size} bytes, REST ${plain.body.size}" }
            T.check(vt.gzipped && vt.contentType == "application/vnd.mapbox-vector-tile") { "gzipped ${vt.gzipped}, type ${vt.contentType}" }
            val gz = raw("GET", "/tilesv1/14/$x/$y.mvt", gzip = true)
            T.eq(gz.encoding, "gzip", "REST Content-Encoding")
            T.check(GZIPInputStream(ByteArrayInputStream(gz.body)).readBytes().contentEquals(vt.bytes)) { "the gzipped REST tile inflates to another tile" }
            // An MVT: a protobuf Tile whose first field is a layer (field 3, length-delimited: 0x1a).
            T.check(vt.bytes.size > 100 && vt.bytes[0] == 0x1a.toByte()) { "not an MVT: ${vt.bytes.take(4)}" }
            val tok = c.tileToken()
            T.check(client("").vectorTile(14, x, y, tok.token).bytes.contentEquals(vt.bytes)) { "the tile by token differs" }
            val (ox, oy) = slippy(Point(-40.0, 30.0), 14)
            T.check(c.vectorTile(14, ox, oy).isEmpty && raw("GET", "/tilesv1/14/$ox/$oy.mvt").body.isEmpty()) { "the open Atlantic's tile is not empty" }
            val e = T.throws<ApiException>("x out of range") { c.vectorTile(2, 4, 0) }
            T.check(e.isValidation && e.serverMessage.contains("0..3")) { "${e.message}" }
            // TileJSON: the server's document, typed.
            val tj = c.tileJson()
            val wj = raw("GET", "/tilesv1/tiles.json", null).json
            val b = wj.doubles("bounds")
            T.eq(listOf(tj.bounds.minLon, tj.bounds.minLat, tj.bounds.maxLon, tj.bounds.maxLat), b, "bounds")
            T.eq(tj.minzoom to tj.maxzoom, wj.int("minzoom") to wj.int("maxzoom"), "zooms")
            T.eq(tj.minzoom to tj.maxzoom, 0 to 14, "zooms (api/openapi.yaml: 0 and 14)")
            T.eq(tj.extractBounds?.let { listOf(it.minLon, it.minLat, it.maxLon, it.maxLat) }, wj.doubles("extract_bounds"), "extract_bounds")
            T.check(tj.extractBounds?.contains(dover) == true && tj.bounds.contains(dover)) { "bounds ${tj.bounds} ${tj.extractBounds}" }
            T.eq(tj.vectorLayers.map { it.id }, wj.objects("vector_layers").map { it.string("id") }, "vector layers")
            T.eq(tj.vectorLayers.firstOrNull { it.id == "buildings" }?.minzoom, 13, "buildings from z13")
            T.check(tj.tiles.single().endsWith("/tilesv1/{z}/{x}/{y}.mvt")) { "tiles ${tj.tiles}" }
            T.check(c.tileJson(tok.token).tiles.single().contains("token=")) { "no token in the template" }
            val st = c.vectorStyle()
            T.check(st.version == 8 && st.sources.has("geosvc") && st.layers.isNotEmpty() && st.glyphs?.contains("/tilesv1/fonts/") == true) { "style ${st.text.take(200)}" }
            T.eq(st.raw.map, raw("GET", "/tilesv1/style.json", null).json.map, "style against REST")
            // Sprite, glyphs.
            for (r2 in listOf(false, true)) {
                val idx = c.spriteIndex(r2)
                T.eq(idx.keys, raw("GET", "/tilesv1/sprite${if (r2) "@2x" else ""}.json", null).json.map.keys, "sprite icons")
                T.check(idx.values.all { it.pixelRatio == (if (r2) 2 else 1) }) { "pixel ratios $idx" }
                val img = ImageIO.read(ByteArrayInputStream(c.spriteImage(r2))) ?: T.fail("sprite $r2: not an image")
                T.check(idx.values.all { it.x + it.width <= img.width && it.y + it.height <= img.height }) { "icons outside the ${img.width} x ${img.height} sprite" }
            }
            val g = c.glyphs("Go Regular", 0, 255)
            T.check(g.size > 1000 && g.contentEquals(raw("GET", "/tilesv1/fonts/Go%20Regular/0-255.pbf", null).body)) { "glyphs ${g.size} bytes" }
            T.check(c.glyphs("Go Bold,Go Regular", 256, 511).isNotEmpty()) { "a stack" }
            T.eq(T.throws<ApiException>("a range of 1001") { c.glyphs("Go Regular", 0, 1000) }.status, 400, "status")
        }
        T.test("LiveRasterTileForms") {
            val c = client()
            val (x, y) = slippy(dover, 14)
            for ((f, size) in listOf(TileFormat.Png to 256, TileFormat.Png2x to 512)) {
                val img = ImageIO.read(ByteArrayInputStream(c.tileImage(14, x, y, f))) ?: T.fail("$f: not an image")
                T.check(img.width == size && img.height == size) { "$f: ${img.width} x ${img.height}" }
            }
            for (f in listOf(TileFormat.WebP, TileFormat.WebP2x)) {
                val w = c.tileImage(14, x, y, f)
                T.check(String(w, 0, 4, Charsets.US_ASCII) == "RIFF" && String(w, 8, 4, Charsets.US_ASCII) == "WEBP") { "$f: not a WebP" }
                T.check(w.contentEquals(raw("GET", "/tilesv1/14/$x/$y${if (f == TileFormat.WebP2x) "@2x" else ""}.webp").body)) { "$f against REST" }
            }
        }
        T.test("LiveOsrmServices") {
            val c = client()
            val near = c.osrmNearest(dover, 2)
            val wn = raw("GET", "/osrm/nearest/v1/car/${coords(listOf(dover))}?number=2").json
            T.eq(near.raw.map, wn.map, "nearest against REST")
            T.eq(near.code, "Ok", "code")
            T.eq(near.waypoints.map { it.name }, wn.objects("waypoints").map { it.string("name") }, "nearest roads")
            T.eq(near.waypoints.map { it.distance }, wn.objects("waypoints").map { it.double("distance") }, "nearest distances")
            T.eq(near.waypoints[0].nodes, wn.objects("waypoints")[0].list("nodes"), "nodes")
            T.check(near.waypoints.size == 2 && near.waypoints[0].distance <= near.waypoints[1].distance && near.waypoints[0].distance < 25) { "nearest ${near.waypoints}" }
            val m = c.osrmMatch(trace)
            val wm = raw("GET", "/osrm/match/v1/car/${coords(trace)}").json
            T.eq(m.raw.map, wm.map, "match against REST")
            T.eq(m.matchings.map { it.distance to it.confidence }, wm.objects("matchings").map { it.double("distance") to it.double("confidence") }, "matchings")
            T.eq(m.tracepoints.size, trace.size, "one tracepoint per coordinate")
            T.check(m.tracepoints.filterNotNull().all { it.matchingsIndex < m.matchings.size }) { "tracepoints ${m.tracepoints}" }
            val tpts = listOf(dover, wilmington, newark)
            val trip = c.osrmTrip(tpts, options = mapOf("overview" to "false"))
            val wt = raw("GET", "/osrm/trip/v1/car/${coords(tpts)}?overview=false").json
            T.eq(trip.raw.map, wt.map, "trip against REST")
            T.eq(trip.trips.map { it.distance to it.duration }, wt.objects("trips").map { it.double("distance") to it.double("duration") }, "trips")
            T.eq(trip.waypoints.map { it.waypointIndex }.sortedBy { it }, listOf<Int?>(0, 1, 2), "each coordinate once in the trip")
            T.eq(trip.trips[0].legCount, 3, "a round trip of 3 stops: 3 legs")
            // OSRM's errors, typed.
            val ns = T.throws<OsrmException>("the open sea") { c.osrmNearest(Point(-74.0, 38.0), options = mapOf("radiuses" to "50")) }
            T.check(ns.code == OsrmErrorCode.NoSegment && ns.status == 400 && ns.serverMessage.contains("coordinate 0")) { "NoSegment: ${ns.message}" }
            T.eq(raw("GET", "/osrm/nearest/v1/car/-74,38?radiuses=50").json.string("code"), "NoSegment", "REST code")
            T.eq(T.throws<OsrmException>("1000 nearest") { c.osrmNearest(dover, 1000) }.code, OsrmErrorCode.TooBig, "number over the maximum")
            T.eq(T.throws<OsrmException>("one-way trip") { c.osrmTrip(tpts, roundtrip = false) }.code, OsrmErrorCode.NotImplemented, "roundtrip=false alone")
            T.eq(T.throws<OsrmException>("a route of one point") { c.osrmRoute(listOf(dover)) }.code, OsrmErrorCode.InvalidOptions, "one coordinate")
        }
        T.test("LiveServiceAndReverseBatch") {
            val c = client()
            T.check(c.health()) { "healthz" }
            T.eq(c.ready(), io.github.geosvc.Readiness(true, "ready"), "readyz")
            val doc = c.openApi()
            T.check(doc.startsWith("openapi: 3") && doc.contains("operationId: lookupsBatch")) { "openapi.yaml ${doc.take(80)}" }
            val batch = c.reverseGeocodeBatch(listOf(dover, wilmington))
            T.eq(batch.map { it.results.firstOrNull()?.formattedAddress }, listOf(dover, wilmington).map { c.reverseGeocode(it).results.firstOrNull()?.formattedAddress },
                "reverse batch against single requests")
        }
    }
}
