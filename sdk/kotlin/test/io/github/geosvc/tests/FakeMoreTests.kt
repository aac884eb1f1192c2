package io.github.geosvc.tests

import io.github.geosvc.ApiException
import io.github.geosvc.GeosvcClient
import io.github.geosvc.LookupLayer
import io.github.geosvc.LookupResult
import io.github.geosvc.MalformedAnswerException
import io.github.geosvc.OsrmErrorCode
import io.github.geosvc.OsrmException
import io.github.geosvc.Point
import io.github.geosvc.tests.FakeServerTests.Scripted
import io.github.geosvc.tests.FakeServerTests.serve
import java.io.ByteArrayOutputStream
import java.util.zip.GZIPOutputStream

/**
 * Malformed and unusual answers of the newer calls from the scripted
 * server: gzip bodies (good, not gzip, cut short), a tile of another
 * content type, OSRM's errors (known, unknown and not OSRM's), NDJSON
 * streams cut short or out of order, a TileJSON of wrong types: each a
 * typed error, never a crash.
 */
object FakeMoreTests {
    private val dover = Point(-75.5244, 39.1582)
    private const val MVT = "application/vnd.mapbox-vector-tile"

    private fun gzip(b: ByteArray): ByteArray {
        val out = ByteArrayOutputStream()
        GZIPOutputStream(out).use { it.write(b) }
        return out.toByteArray()
    }

    private fun line(i: Int) = """{"index":$i,"status":200,"timezone":${JsonTests.tzAnswer}}"""

    fun register() {
        T.test("FakeVectorTileGzip") {
            val tile = byteArrayOf(0x1a, 3, 0x0a, 1, 0x61) + ByteArray(300) { (it % 7).toByte() }
            serve(Scripted(200, "", mapOf("Content-Type" to MVT, "Content-Encoding" to "gzip", "ETag" to "\"e1\""), bytes = gzip(tile)),
                Scripted(200, "", mapOf("Content-Type" to MVT), bytes = tile)) { base, seen ->
                val c = GeosvcClient(base, "k")
                val vt = c.vectorTile(14, 4754, 6252, "tok")
                T.check(vt.bytes.contentEquals(tile) && vt.gzipped && vt.etag == "\"e1\"") { "inflated ${vt.bytes.size} bytes, gzipped ${vt.gzipped}, etag ${vt.etag}" }
                T.eq(seen[0], "GET /tilesv1/14/4754/6252.mvt?token=tok key=k", "request")
                val plain = c.vectorTile(14, 4754, 6252)
                T.check(plain.bytes.contentEquals(tile) && !plain.gzipped) { "identity tile" }
            }
            serve(Scripted(200, "", mapOf("Content-Type" to MVT, "Content-Encoding" to "gzip"), bytes = gzip(ByteArray(0)))) { base, _ ->
                T.check(GeosvcClient(base, "k").vectorTile(14, 6371, 6759).isEmpty) { "an empty tile gzipped" }
            }
        }
        T.test("FakeMalformedBinary") {
            val good = gzip(ByteArray(500) { it.toByte() })
            val cases = listOf(
                "not gzip" to Scripted(200, "plain bytes", mapOf("Content-Type" to MVT, "Content-Encoding" to "gzip")),
                "gzip cut short" to Scripted(200, "", mapOf("Content-Type" to MVT, "Content-Encoding" to "gzip"), bytes = good.copyOf(good.size / 2)),
                "an HTML page" to Scripted(200, "<html>login</html>", mapOf("Content-Type" to "text/html")),
                "TileJSON" to Scripted(200, """{"tilejson":"3.0.0","tiles":[]}""", mapOf("Content-Type" to "application/json"))
            )
            for ((what, a) in cases) serve(a) { base, _ ->
                T.throws<MalformedAnswerException>(what) { GeosvcClient(base, "k").vectorTile(1, 0, 0) }
            }
            for (b in listOf(JsonTests.tileJsonAnswer.replace("\"minzoom\":0", "\"minzoom\":\"0\""), """{"tilejson":3}""", "{\"tilejson\":\"3.0.0\",\"tiles\":[")) {
                serve(Scripted(200, b)) { base, _ -> T.throws<MalformedAnswerException>("TileJSON ${b.take(40)}") { GeosvcClient(base, "k").tileJson() } }
            }
            serve(Scripted(200, """{"place":{"x":0,"y":0,"width":10}}""")) { base, _ ->
                T.throws<MalformedAnswerException>("a sprite icon without height") { GeosvcClient(base, "k").spriteIndex() }
            }
        }
        T.test("FakeOsrmErrors") {
            serve(Scripted(400, """{"code":"NoSegment","message":"Could not find a matching segment for coordinate 0"}""")) { base, seen ->
                val e = T.throws<OsrmException>("NoSegment") { GeosvcClient(base, "k").osrmNearest(dover, 3, options = mapOf("radiuses" to "50")) }
                T.check(e.code == OsrmErrorCode.NoSegment && e.status == 400 && e.serverMessage.endsWith("coordinate 0")) { "${e.message}" }
                T.eq(seen[0], "GET /osrm/nearest/v1/car/-75.5244,39.1582?radiuses=50&number=3 key=k", "request")
            }
            serve(Scripted(400, """{"code":"Brandnew","message":"a code of a newer server"}""")) { base, _ ->
                val e = T.throws<OsrmException>("an unknown code") { GeosvcClient(base, "k").osrmTrip(listOf(dover, dover)) }
                T.check(e.code == OsrmErrorCode.Unknown && e.osrmCode == "Brandnew") { "${e.code} ${e.osrmCode}" }
            }
            serve(Scripted(400, "<html>Bad Request</html>")) { base, _ ->
                val e = T.throws<ApiException>("not OSRM's error") { GeosvcClient(base, "k").osrmMatch(listOf(dover, dover)) }
                T.check(e !is OsrmException && e.status == 400) { "${e.javaClass.simpleName} ${e.message}" }
            }
            serve(Scripted(200, """{"code":"NoRoute","message":"Impossible route between points"}""")) { base, _ ->
                val e = T.throws<OsrmException>("a 200 of code NoRoute") { GeosvcClient(base, "k").osrmRoute(listOf(dover, dover)) }
                T.check(e.code == OsrmErrorCode.NoRoute && e.status == 200) { "${e.message}" }
            }
            for (b in listOf("""{"code":5}""", """{"code":"Ok","waypoints":"x"}""", """{"code":"Ok","waypoints":[{"name":"a","location":[1],"distance":0}]}""", "{\"code\":\"Ok\"")) {
                serve(Scripted(200, b)) { base, _ -> T.throws<MalformedAnswerException>("nearest ${b.take(40)}") { GeosvcClient(base, "k").osrmNearest(dover) } }
            }
            T.throws<IllegalArgumentException>("timestamps of another length") { GeosvcClient("http://127.0.0.1:1", "k").osrmMatch(listOf(dover, dover), listOf(1L)) }
        }
        T.test("FakeLookupsStream") {
            val three = (0 until 3).joinToString("\n") { line(it) } + "\n"
            val nd = mapOf("Content-Type" to "application/x-ndjson")
            serve(Scripted(200, three, nd), Scripted(200, "", nd + mapOf("Content-Encoding" to "gzip"), bytes = gzip(three.toByteArray()))) { base, seen ->
                val c = GeosvcClient(base, "k")
                for (round in 0 until 2) {
                    val got = ArrayList<LookupResult>()
                    T.eq(c.lookupsBatchStream(listOf(dover, dover, Point(200.0, 0.0)), listOf(LookupLayer.Timezone), "1784116800") { got.add(it) }, 3, "count $round")
                    T.eq(got.map { it.index }, listOf(0, 1, 2), "indexes $round")
                    T.eq(got[0].timezone?.utcOffset, "UTC-05:00", "typed layer $round")
                }
                T.eq(seen[0], "POST /lookupsv1/batch key=k {\"points\":[{\"x\":-75.5244,\"y\":39.1582},{\"x\":-75.5244,\"y\":39.1582},{\"x\":200,\"y\":0}]," +
                    "\"layers\":[\"timezone\"],\"timestamp\":\"1784116800\"}", "request (a point out of range sent for the server to answer)")
            }
            val bad = listOf(
                "cut short" to line(0) + "\n" + line(1).dropLast(20),
                "out of order" to line(0) + "\n" + line(2) + "\n",
                "not an object" to line(0) + "\n[1,2]\n",
                "wrong types" to line(0) + "\n" + line(1).replace("\"status\":200", "\"status\":\"200\"") + "\n"
            )
            for ((what, body) in bad) serve(Scripted(200, body, nd)) { base, _ ->
                val got = ArrayList<Int>()
                T.throws<MalformedAnswerException>(what) { GeosvcClient(base, "k").lookupsBatchStream(listOf(dover), listOf(LookupLayer.Timezone)) { got.add(it.index) } }
                T.eq(got, listOf(0), "$what: the results before the bad line")
            }
            serve(Scripted(200, """{"results":[]}""", mapOf("Content-Type" to "application/json"))) { base, _ ->
                val e = T.throws<MalformedAnswerException>("JSON for NDJSON") { GeosvcClient(base, "k").lookupsBatchStream(listOf(dover), listOf(LookupLayer.Admin)) { } }
                T.check(e.message!!.contains("content type application/json")) { "${e.message}" }
            }
            serve(Scripted(200, """{"results":[{"index":0,"status":200,"admin":{"features":{}}}]}""")) { base, _ ->
                T.throws<MalformedAnswerException>("admin features of an object") { GeosvcClient(base, "k").lookupsBatch(listOf(dover), listOf(LookupLayer.Admin)) }
            }
            T.throws<IllegalArgumentException>("NaN") { GeosvcClient("http://127.0.0.1:1", "k").lookupsBatch(listOf(Point(Double.NaN, 0.0)), listOf(LookupLayer.Zip4)) }
        }
        T.test("FakeReadyNotRetried") {
            serve(Scripted(503, """{"message":"not ready: data bundle not loaded"}""")) { base, seen ->
                val r = GeosvcClient(base, "k").ready()
                T.check(!r.ready && r.status == "not ready: data bundle not loaded") { "$r" }
                T.eq(seen.size, 1, "readyz's 503 is an answer, not retried")
            }
        }
    }
}
