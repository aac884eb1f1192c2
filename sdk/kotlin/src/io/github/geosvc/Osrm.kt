package io.github.geosvc

/**
 * The OSRM-compatible API of a [GeosvcClient] (docs/osrm.md): OSRM v5's
 * route, table, nearest, match and trip services, typed, and [osrm] for
 * any of them untyped. Coordinates are written "lon,lat;..."; options as
 * written in OSRM's URLs ("overview" to "false", "annotations" to
 * "duration,distance"). An error answer is an [OsrmException] with OSRM's
 * code (NoSegment, NoRoute, TooBig...); a bad key a [ForbiddenException].
 */
abstract class OsrmCalls internal constructor(baseUrl: String, apiKey: String?, options: ClientOptions) : ClientCore(baseUrl, apiKey, options) {
    /**
     * An OSRM v5 service: service "route", "table", "nearest", "match" or
     * "trip", profile "car"..., the coordinates, and OSRM's options. The
     * answer is OSRM's JSON, untyped (its code "Ok").
     */
    @JvmOverloads
    @Operation("osrmRoute", "osrmTable", "osrmNearest", "osrmMatch", "osrmTrip")
    fun osrm(service: String, profile: String, coordinates: List<Point>, options: Map<String, String> = emptyMap(), cancel: CancellationToken? = null): JsonObject {
        coordinates.forEachIndexed { i, p -> p.check("coordinates[$i]") }
        require(service.matches(Regex("[a-z]+")) && profile.matches(Regex("[A-Za-z0-9_-]+"))) { "geosvc: osrm service $service profile $profile" }
        require(coordinates.isNotEmpty()) { "geosvc: osrm $service: no coordinates" }
        val coords = coordinates.joinToString(";") { it.toString() }
        val op = "osrm-$service"
        val a = t.get(op, "/osrm/$service/v1/$profile/$coords", options.toList(), cancel)
        if (a.status != 200) throw osrmError(a)
        return osrmOk(a.json(), op, a.status)
    }

    /** OSRM's error of an answer: its code and message when the body is OSRM's error, else the answer's [ApiException]. */
    private fun osrmError(a: Answer): ApiException {
        val e = a.error()
        if (e is ForbiddenException || a.status < 400 || a.status >= 500) return e
        val o = try { JsonObject.of(Json.parse(a.text)) } catch (_: Exception) { return e }
        val code = o.map["code"] as? String ?: return e
        return OsrmException(a.op, a.status, code, o.map["message"] as? String ?: "", a.header("X-Request-Id"))
    }

    /** OSRM's route service: the route through the coordinates (options such as "alternatives" to "true", "steps" to "true"). */
    @JvmOverloads
    @Operation("osrmRoute")
    fun osrmRoute(coordinates: List<Point>, profile: String = "car", options: Map<String, String> = emptyMap(), cancel: CancellationToken? = null): OsrmRoutes =
        OsrmRoutes.of(osrm("route", profile, coordinates, options, cancel))

    /** OSRM's table service (options such as "annotations" to "duration,distance", "sources" to "0"). */
    @JvmOverloads
    @Operation("osrmTable")
    fun osrmTable(coordinates: List<Point>, profile: String = "car", options: Map<String, String> = emptyMap(), cancel: CancellationToken? = null): OsrmTable =
        OsrmTable.of(osrm("table", profile, coordinates, options, cancel))

    /**
     * OSRM's nearest service: the number (1 to osrm.max_nearest_size, 100)
     * nearest roads to p, nearest first. A point with no road within its
     * radius ("radiuses" to "50") is an [OsrmException] NoSegment.
     */
    @JvmOverloads
    @Operation("osrmNearest")
    fun osrmNearest(p: Point, number: Int = 1, profile: String = "car", options: Map<String, String> = emptyMap(), cancel: CancellationToken? = null): OsrmNearest {
        val o = LinkedHashMap(options)
        if (number != 1) o["number"] = number.toString()
        return OsrmNearest.of(osrm("nearest", profile, listOf(p), o, cancel))
    }

    /**
     * OSRM's match service: the roads a GPS trace drove; timestamps (Unix
     * seconds, one per coordinate, not decreasing) or null; options such as
     * "radiuses", "gaps", "tidy", "overview".
     */
    @JvmOverloads
    @Operation("osrmMatch")
    fun osrmMatch(coordinates: List<Point>, timestamps: List<Long>? = null, profile: String = "car", options: Map<String, String> = emptyMap(),
                  cancel: CancellationToken? = null): OsrmMatch {
        require(timestamps == null || timestamps.size == coordinates.size) { "geosvc: osrm match: ${timestamps?.size} timestamps for ${coordinates.size} coordinates" }
        val o = LinkedHashMap(options)
        if (timestamps != null) o["timestamps"] = timestamps.joinToString(";")
        return OsrmMatch.of(osrm("match", profile, coordinates, o, cancel))
    }

    /**
     * OSRM's trip service: the coordinates visited in the order of least
     * duration. roundtrip false needs source "first" or destination "last"
     * (else an [OsrmException] NotImplemented); null: the server's default.
     */
    @JvmOverloads
    @Operation("osrmTrip")
    fun osrmTrip(coordinates: List<Point>, roundtrip: Boolean? = null, source: String? = null, destination: String? = null, profile: String = "car",
                 options: Map<String, String> = emptyMap(), cancel: CancellationToken? = null): OsrmTrip {
        val o = LinkedHashMap(options)
        if (roundtrip != null) o["roundtrip"] = roundtrip.toString()
        if (source != null) o["source"] = source
        if (destination != null) o["destination"] = destination
        return OsrmTrip.of(osrm("trip", profile, coordinates, o, cancel))
    }

    /**
     * Any JSON operation by hand: method "GET" with query parameters, or
     * "POST" with body (written as JSON). Same key, retries, errors and
     * cancellation; the answer's top-level object. Every operation of
     * api/openapi.yaml has a typed method: this is for a server newer than
     * the SDK.
     */
    @JvmOverloads
    fun call(method: String, path: String, query: Map<String, Any?> = emptyMap(), body: Any? = null, cancel: CancellationToken? = null): JsonObject {
        require(path.startsWith("/")) { "geosvc: path $path: want /interface/operation" }
        val bytes = if (body == null) null else Json.write(body).toByteArray(Charsets.UTF_8)
        return ok(t.send(path.trim('/'), method, path, query.toList(), bytes, cancel))
    }
}
