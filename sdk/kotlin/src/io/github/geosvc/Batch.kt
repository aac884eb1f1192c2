package io.github.geosvc

import java.io.BufferedReader
import java.io.InputStream
import java.io.InputStreamReader

/**
 * The batch lookups (lookupsv1) and the service's own operations (health,
 * readiness, the OpenAPI document) of a [GeosvcClient].
 */
abstract class BatchCalls internal constructor(baseUrl: String, apiKey: String?, options: ClientOptions) : TileCalls(baseUrl, apiKey, options) {
    /**
     * Looks up to 10,000 points in the layers named (POST /lookupsv1/batch):
     * one [LookupResult] per point, in order, each layer's answer what its
     * GET endpoint answers at the point. A bad point (out of range) is its
     * own result of status 400, not an error of the batch. timestamp (Unix
     * seconds or RFC 3339) is the instant of the timezone layer. The whole
     * answer is held in memory: for large batches use [lookupsBatchStream].
     */
    @JvmOverloads
    @Operation("lookupsBatch")
    fun lookupsBatch(points: List<Point>, layers: List<LookupLayer>, timestamp: String? = null, cancel: CancellationToken? = null): List<LookupResult> =
        ok(t.post("lookups-batch", "/lookupsv1/batch", lookupsBody(points, layers, timestamp), cancel)).objects("results").map { LookupResult.of(it) }

    /**
     * [lookupsBatch] streamed (NDJSON, gzip): onResult gets each point's
     * result, in order, as it arrives, on the calling thread, so that the
     * answer (37 MB of JSON for 10,000 points and five layers) is never
     * held whole. Returns how many results came. An answer cut short is a
     * [NetworkException] (or [MalformedAnswerException] for a line that is
     * not a result) after the results before it were given; cancel stops
     * it at once. Only an answer refused before it starts is retried.
     */
    @JvmOverloads
    @Operation("lookupsBatch")
    fun lookupsBatchStream(points: List<Point>, layers: List<LookupLayer>, timestamp: String? = null, cancel: CancellationToken? = null,
                           onResult: (LookupResult) -> Unit): Int {
        val body = Json.write(lookupsBody(points, layers, timestamp)).toByteArray(Charsets.UTF_8)
        val a = t.send("lookups-batch", "POST", "/lookupsv1/batch", emptyList(), body, cancel, NDJSON, read = { s, type ->
            if (type != null && !type.startsWith(NDJSON)) throw MalformedAnswerException("lookups-batch: content type $type, want $NDJSON")
            readLines(s, onResult)
        })
        if (a.status != 200) throw a.error()
        return a.streamed as Int
    }

    private fun readLines(s: InputStream, onResult: (LookupResult) -> Unit): Int {
        val r = BufferedReader(InputStreamReader(s, Charsets.UTF_8), 64 * 1024)
        var n = 0
        while (true) {
            val line = r.readLine() ?: return n
            if (line.isBlank()) continue
            val v = try {
                Json.parse(line)
            } catch (e: JsonException) {
                throw MalformedAnswerException("lookups-batch: line ${n + 1}: ${e.message}", e)
            }
            val res = LookupResult.of(JsonObject(
                (v as? Map<*, *>)?.let { @Suppress("UNCHECKED_CAST") (it as Map<String, Any?>) }
                    ?: throw MalformedAnswerException("lookups-batch: line ${n + 1}: want an object, got ${JsonObject.describe(v, true)}"),
                "$[$n]"))
            if (res.index != n) throw MalformedAnswerException("lookups-batch: line ${n + 1}: index ${res.index}, want $n")
            onResult(res)
            n++
        }
    }

    private fun lookupsBody(points: List<Point>, layers: List<LookupLayer>, timestamp: String?): Map<String, Any?> {
        val body = LinkedHashMap<String, Any?>()
        body["points"] = points.mapIndexed { i, p ->
            // Out of range is the server's to answer (in the point's own result); JSON has no NaN.
            require(!p.lon.isNaN() && !p.lat.isNaN() && !p.lon.isInfinite() && !p.lat.isInfinite()) { "geosvc: points[$i] $p: NaN and infinities cannot be sent as JSON" }
            mapOf("x" to p.lon, "y" to p.lat)
        }
        body["layers"] = layers.map { it.wire }
        if (timestamp != null) body["timestamp"] = timestamp
        return body
    }

    /** Whether the process serves HTTP (GET /healthz; no key): true for {"status":"ok"}. */
    @JvmOverloads
    @Operation("healthz")
    fun health(cancel: CancellationToken? = null): Boolean = ok(t.send("healthz", "GET", "/healthz", emptyList(), null, cancel, retry = false)).string("status") == "ok"

    /**
     * Whether the server is ready to answer (GET /readyz; no key): the data
     * bundle loaded and Redis answering. Not retried: a 503 is an answer
     * here, [Readiness.ready] false with the server's reason.
     */
    @JvmOverloads
    @Operation("readyz")
    fun ready(cancel: CancellationToken? = null): Readiness {
        val a = t.send("readyz", "GET", "/readyz", emptyList(), null, cancel, retry = false)
        if (a.status == 503) return Readiness(false, a.error().serverMessage)
        val o = ok(a)
        return Readiness(o.string("status") == "ready", o.string("status"))
    }

    /** The server's OpenAPI 3 document (GET /openapi.yaml; no key), YAML text. */
    @JvmOverloads
    @Operation("getOpenAPI")
    fun openApi(cancel: CancellationToken? = null): String {
        val a = t.get("openapi", "/openapi.yaml", emptyList(), cancel, "application/yaml")
        if (a.status != 200) throw a.error()
        return a.text
    }

    private companion object {
        const val NDJSON = "application/x-ndjson"
    }
}

/** The server's readiness: [ready], and the status ("ready") or the reason it is not. */
data class Readiness(val ready: Boolean, val status: String)

/** The layers of lookupsv1, each the answer of one GET lookup. */
enum class LookupLayer(internal val wire: String) {
    /** timezonesv1/xy2tzdata (with the batch's timestamp). */
    Timezone("timezone"),
    /** adminv1/xy2hierarchy: every level, no geometry. */
    Admin("admin"),
    /** geoboundariesv1/xy2bounddata: every category. */
    GeoBoundaries("geoboundaries"),
    /** zip4v1/xy2zip. */
    Zip4("zip4"),
    /** covidv1/xy2data?admin=8: the finest level with data, and those above. */
    Covid("covid")
}

/** A layer's error at a point: the status and message its GET endpoint would answer (404: a point in no time zone). */
data class LayerError(val status: Int, val message: String)

/**
 * One point's result of a lookupsv1 batch: [index] its place in the
 * request, [status] 200, or 400 with [message] for an invalid point; each
 * layer asked for typed as its own call's answer (the time zone's name is
 * the answer's time_zone_id, given with a timestamp), null when not asked
 * or in [layerErrors].
 */
class LookupResult(
    val index: Int, val status: Int, val message: String?,
    val timezone: TimeZoneInfo?,
    /** The areas at the point, admin0 first: [GeosvcClient.adminHierarchy]'s properties. */
    val admin: List<JsonObject>?,
    val geoBoundaries: List<GeoBoundary>?, val zip4: Zip4?,
    /** covidv1/xy2data's records by level. */
    val covid: Map<String, CovidRecord>?,
    /** The layers that answered an error at the point, by name ("timezone"). */
    val layerErrors: Map<String, LayerError>, val raw: JsonObject
) {
    val ok: Boolean get() = status == 200

    internal companion object {
        fun of(o: JsonObject): LookupResult {
            val errors = LinkedHashMap<String, LayerError>()
            fun layer(name: String): JsonObject? {
                val l = o.objOrNull(name) ?: return null
                val st = l.map["status"]
                if (st is Number && l.map["message"] is String) {
                    errors[name] = LayerError(l.int("status"), l.string("message"))
                    return null
                }
                return l
            }
            return LookupResult(o.int("index"), o.int("status"), o.stringOrNull("message"),
                layer("timezone")?.let { TimeZoneInfo.of(it, null) },
                layer("admin")?.let { a -> a.objects("features").map { it.obj("properties") } },
                layer("geoboundaries")?.let { g -> g.objects("boundaries").map { GeoBoundary.of(it) } },
                layer("zip4")?.let { Zip4.of(it) },
                layer("covid")?.let { CovidRecord.hierarchy(it.obj("hierarchy_data")) },
                errors, o)
        }
    }
}
