package io.github.geosvc

import java.util.concurrent.Executor

/**
 * The Kotlin (Android and JVM) client of geosvc's REST interfaces.
 *
 * Every method is a plain blocking call: call it from a background thread
 * (Android forbids network on the main thread) or use [enqueue], which runs
 * it on the client's executor and calls back on its callbackExecutor, never
 * on the caller's thread. Each call sends the API key, retries 429 and 503
 * with backoff (honouring Retry-After, up to [ClientOptions.maxRetries]),
 * stops when its [CancellationToken] is cancelled, and fails with a
 * [GeosvcException]: [ForbiddenException] (403), [ApiException] (any other
 * error answer: validation 400 with the server's message, 429 with its
 * Retry-After and quota), [MalformedAnswerException], [NetworkException],
 * [CancelledException], [JobException] (matrix jobs).
 *
 * ```
 * val c = GeosvcClient("http://10.0.2.2:8080", key)
 * val tz = c.timeZone(Point(-75.5244, 39.1582))   // tz.name == "America/New_York"
 * ```
 *
 * A client is safe for concurrent use.
 */
class GeosvcClient @JvmOverloads constructor(baseUrl: String, apiKey: String?, options: ClientOptions = ClientOptions()) :
    BatchCalls(baseUrl, apiKey, options) {

    /**
     * Runs [task] on the client's executor and gives its result or error to
     * [callback] on the callbackExecutor. The returned token cancels it (the
     * callback then gets a [CancelledException]). Kotlin coroutines are not
     * part of the JDK; with kotlinx.coroutines, wrap a blocking call in
     * `withContext(Dispatchers.IO)` instead.
     */
    fun <T> enqueue(task: (CancellationToken) -> T, callback: Callback<T>): CancellationToken {
        val token = CancellationToken()
        val exec: Executor = options.executor ?: Transport.pool
        val deliver: Executor = options.callbackExecutor ?: Executor { it.run() }
        exec.execute {
            val outcome: Any? = try {
                if (token.isCancelled) throw CancelledException("enqueue")
                Ok(task(token))
            } catch (e: GeosvcException) {
                e
            } catch (e: RuntimeException) {
                GeosvcException("geosvc: ${e.message}", e)
            }
            deliver.execute {
                @Suppress("UNCHECKED_CAST")
                if (outcome is Ok<*>) callback.onSuccess(outcome.v as T) else callback.onFailure(outcome as GeosvcException)
            }
        }
        return token
    }

    /** [enqueue] with two lambdas. */
    fun <T> enqueue(task: (CancellationToken) -> T, onSuccess: (T) -> Unit, onFailure: (GeosvcException) -> Unit): CancellationToken =
        enqueue(task, object : Callback<T> {
            override fun onSuccess(value: T) = onSuccess(value)
            override fun onFailure(error: GeosvcException) = onFailure(error)
        })

    private class Ok<T>(val v: T)

    /** The server's version, interfaces and data bundle (GET /v1/info; no key needed). */
    @JvmOverloads
    @Operation("getInfo")
    fun info(cancel: CancellationToken? = null): Info = Info.of(ok(t.get("info", "/v1/info", emptyList(), cancel)))

    /** The ZIP+4 areas containing p (zip4v1/xy2zip; sent x = latitude, y = longitude, as the interface wants). */
    @JvmOverloads
    @Operation("zip4Xy2zip")
    fun zip4(p: Point, cancel: CancellationToken? = null): Zip4 {
        p.check()
        return Zip4.of(ok(t.get("xy2zip", "/zip4v1/xy2zip", listOf("x" to p.lat, "y" to p.lon), cancel)))
    }

    /** The area(s) of a nine-digit ZIP+4 code (zip4v1/xy2zip?zip9=). */
    @JvmOverloads
    @Operation("zip4Xy2zip")
    fun zip4Code(zip9: String, cancel: CancellationToken? = null): Zip4 =
        Zip4.of(ok(t.get("xy2zip", "/zip4v1/xy2zip", listOf("zip9" to zip9), cancel)))

    /**
     * The places matching a free-text address (geocoderv1/geocoder).
     * ZERO_RESULTS is an answer with no results; any other status than OK
     * is an [ApiException] with geocoderStatus set.
     */
    @JvmOverloads
    @Operation("geocode")
    fun geocode(address: String, components: String? = null, bounds: String? = null, resultType: String? = null,
                locationType: String? = null, cancel: CancellationToken? = null): Geocoded =
        geocoded(t.get("geocode", "/geocoderv1/geocoder", listOf("address" to address, "components" to components,
            "bounds" to bounds, "result_type" to resultType, "location_type" to locationType), cancel))

    /** The addresses at p, nearest first (geocoderv1/rev-geocoder). */
    @JvmOverloads
    @Operation("reverseGeocode")
    fun reverseGeocode(p: Point, resultType: String? = null, locationType: String? = null, cancel: CancellationToken? = null): Geocoded {
        p.check()
        return geocoded(t.get("rev-geocode", "/geocoderv1/rev-geocoder", listOf("x" to p.lon, "y" to p.lat,
            "result_type" to resultType, "location_type" to locationType), cancel))
    }

    /**
     * Completions of what a search box holds so far (geocoderv1/autocomplete):
     * the last word a prefix, ranked by text match, importance and nearness
     * to focus; limit 1 to 20; layers of address, street, place, poi,
     * postcode; lang BCP 47 tags, preferred first.
     */
    @JvmOverloads
    @Operation("autocomplete")
    fun autocomplete(text: String, focus: Point? = null, limit: Int? = null, layers: List<String>? = null, lang: String? = null,
                     cancel: CancellationToken? = null): Geocoded {
        focus?.check("focus")
        return geocoded(t.get("autocomplete", "/geocoderv1/autocomplete", listOf("text" to text, "focus" to focus?.toString(),
            "limit" to limit, "layers" to layers?.joinToString(","), "lang" to lang), cancel))
    }

    /** Up to 1,000 addresses geocoded in one request (geocoderv1/batch): one answer per address, in order. */
    @JvmOverloads
    @Operation("geocodeBatch")
    fun geocodeBatch(addresses: List<String>, cancel: CancellationToken? = null): List<Geocoded> =
        ok(t.post("geocode-batch", "/geocoderv1/batch", mapOf("addresses" to addresses), cancel)).objects("results").map { Geocoded.of(it) }

    /**
     * Up to 1,000 points reverse-geocoded in one request (geocoderv1/batch,
     * reverse): one answer per point, in order; a point out of range gets
     * its own INVALID_REQUEST answer (status and error_message in raw).
     */
    @JvmOverloads
    @Operation("geocodeBatch")
    fun reverseGeocodeBatch(points: List<Point>, cancel: CancellationToken? = null): List<Geocoded> {
        val ps = points.mapIndexed { i, p ->
            require(!p.lon.isNaN() && !p.lat.isNaN() && !p.lon.isInfinite() && !p.lat.isInfinite()) { "geosvc: reverse[$i] $p: NaN and infinities cannot be sent as JSON" }
            mapOf("x" to p.lon, "y" to p.lat)
        }
        return ok(t.post("geocode-batch", "/geocoderv1/batch", mapOf("reverse" to ps), cancel)).objects("results").map { Geocoded.of(it) }
    }

    /**
     * The time zone at p at an instant (timezonesv1/xy2tzdata with timestamp,
     * Unix seconds): raw holds raw_offset_s, dst_offset_s, time_zone_id and
     * the abbreviation in force then.
     */
    @JvmOverloads
    @Operation("xy2tzdata")
    fun timeZoneAt(p: Point, unixSeconds: Long, cancel: CancellationToken? = null): TimeZoneInfo {
        p.check()
        val a = t.get("xy2tzdata", "/timezonesv1/xy2tzdata", listOf("x" to p.lon, "y" to p.lat, "timestamp" to unixSeconds), cancel)
        return TimeZoneInfo.of(ok(a), a.header("X-Time-Zone"))
    }

    /** Every administrative area at p, admin0 first (adminv1/xy2hierarchy): the GeoJSON features' properties. */
    @JvmOverloads
    @Operation("xy2hierarchy")
    fun adminHierarchy(p: Point, lang: String? = null, cancel: CancellationToken? = null): List<JsonObject> {
        p.check()
        return ok(t.get("xy2hierarchy", "/adminv1/xy2hierarchy", listOf("x" to p.lon, "y" to p.lat, "lang" to lang), cancel))
            .objects("features").map { it.obj("properties") }
    }

    /**
     * A static map image (mapsv1/static), PNG: params as the interface's
     * query (center, zoom, size, markers, path, route, bbox, scale, format).
     */
    @JvmOverloads
    @Operation("staticMap")
    fun staticMap(params: Map<String, Any?>, cancel: CancellationToken? = null): ByteArray {
        return bytes(t.get("static-map", "/mapsv1/static", params.toList(), cancel, "image/png"))
    }

    private fun geocoded(a: Answer): Geocoded {
        val g = Geocoded.of(ok(a))
        if (g.status != "OK" && g.status != "ZERO_RESULTS")
            throw ApiException(a.op, a.status, g.raw.stringOrNull("error_message") ?: "", geocoderStatus = g.status, requestId = a.header("X-Request-Id"))
        return g
    }

    /** The time zone and the local area at p (timezonesv1/xy2tzdata); name is the IANA zone. */
    @JvmOverloads
    @Operation("xy2tzdata")
    fun timeZone(p: Point, cancel: CancellationToken? = null): TimeZoneInfo {
        p.check()
        val a = t.get("xy2tzdata", "/timezonesv1/xy2tzdata", listOf("x" to p.lon, "y" to p.lat), cancel)
        return TimeZoneInfo.of(ok(a), a.header("X-Time-Zone"))
    }

    /** The administrative area of level at p, or the nearest coarser one (adminv1/xy2admininfo). */
    @JvmOverloads
    @Operation("xy2admininfo")
    fun admin(p: Point, level: AdminLevel, cancel: CancellationToken? = null): Admin {
        p.check()
        return Admin.of(ok(t.get("xy2admininfo", "/adminv1/xy2admininfo", listOf("x" to p.lon, "y" to p.lat, "type" to level.wire), cancel)))
    }

    /**
     * The non-administrative boundaries containing p, smallest first
     * (geoboundariesv1/xy2bounddata); category 0: all, else that category
     * (920 postal_code, 921 protected_area...).
     */
    @JvmOverloads
    @Operation("xy2bounddata")
    fun geoBoundaries(p: Point, category: Int = 0, cancel: CancellationToken? = null): List<GeoBoundary> {
        p.check()
        val o = ok(t.get("xy2bounddata", "/geoboundariesv1/xy2bounddata",
            listOf("x" to p.lon, "y" to p.lat, "geo_boundary" to (if (category == 0) null else category)), cancel))
        return o.objects("boundaries").map { GeoBoundary.of(it) }
    }

    /** The countries with health data (covidv1/countries/list). */
    @JvmOverloads
    @Operation("covidCountries")
    fun covidCountries(cancel: CancellationToken? = null): List<CovidCountry> =
        ok(t.get("covid-countries", "/covidv1/countries/list", emptyList(), cancel)).objects("codes")
            .map { CovidCountry(it.string("ISO3"), it.string("name"), it.string("dial_code")) }

    /** The records of every administration of a country (ISO3) at level admin ("admin0".."admin8") on date (null: latest; "2021-03-01"). */
    @JvmOverloads
    @Operation("country2data")
    fun covidCountry(iso3: String, admin: String, date: String? = null, cancel: CancellationToken? = null): List<CovidRecord> =
        ok(t.get("country2data", "/covidv1/country2data", listOf("country" to iso3, "admin" to admin, "date" to date), cancel))
            .objects("data").map { CovidRecord.of(it) }

    /** The health data of the administrations at p, from level admin up to the country, by level (covidv1/xy2data). */
    @JvmOverloads
    @Operation("xy2data")
    fun covidAt(p: Point, admin: String, date: String? = null, cancel: CancellationToken? = null): Map<String, CovidRecord> {
        p.check()
        val o = ok(t.get("xy2data", "/covidv1/xy2data", listOf("x" to p.lon, "y" to p.lat, "admin" to admin, "date" to date), cancel))
        return CovidRecord.hierarchy(o.obj("hierarchy_data"))
    }

    /** The web-mercator tile of zoom (14..20) holding p with its health data (covidv1/xy2tile). */
    @JvmOverloads
    @Operation("xy2tile")
    fun covidTileAt(p: Point, zoom: Int, cancel: CancellationToken? = null): CovidTile {
        p.check()
        return CovidTile.of(ok(t.get("xy2tile", "/covidv1/xy2tile", listOf("x" to p.lon, "y" to p.lat, "zoom" to zoom), cancel)))
    }

    /** The tile x, y of zoom (covidv1/index2tile). */
    @JvmOverloads
    @Operation("index2tile")
    fun covidTile(x: Int, y: Int, zoom: Int, cancel: CancellationToken? = null): CovidTile =
        CovidTile.of(ok(t.get("index2tile", "/covidv1/index2tile", listOf("x" to x, "y" to y, "zoom" to zoom), cancel)))

    /**
     * The route from one point to another (routev1/route; points written
     * "lon,lat"). routing: null (fastest), "shortest", "efficient",
     * "safest"; avoid: "ferry", "motorway", "toll", "unpaved";
     * alternatives 0..2; speeds km/h by road type ("Motorway" to 80).
     */
    @JvmOverloads
    @Operation("route")
    fun route(from: Point, to: Point, routing: String? = null, avoid: List<String> = emptyList(), alternatives: Int = 0,
              speeds: Map<String, Double> = emptyMap(), cancel: CancellationToken? = null): Route {
        val o = RouteOptions()
        o.routing = routing
        o.avoid = avoid
        o.alternatives = alternatives
        o.speeds = speeds
        return routeWith(from, to, o, cancel)
    }

    /**
     * The route with routev1's every option ([RouteOptions]: profile and
     * vehicle, departure or arrival time, avoid polygons, OSRM's radiuses,
     * bearings, approaches, snapping, the street names' language).
     */
    @JvmOverloads
    @Operation("route")
    fun routeWith(from: Point, to: Point, opts: RouteOptions, cancel: CancellationToken? = null): Route {
        from.check("from")
        to.check("to")
        val q = ArrayList<Pair<String, Any?>>()
        q.add("from" to from.toString())
        q.add("to" to to.toString())
        q.addAll(opts.query())
        return Route.of(ok(t.get("route", "/routev1/route", q, cancel)))
    }

    /**
     * The areas reachable from several origins (isochronev1, POST; 1 to 5
     * origins, each answered on its own: a contour's origin is its index).
     * extra holds the request's other members (metric, polygons, reverse,
     * profile, vehicle, speeds, avoid, departure_time...) as api/openapi.yaml
     * gives them.
     */
    @JvmOverloads
    @Operation("isochrones")
    fun isochrones(origins: List<Point>, contours: List<Double>, extra: Map<String, Any?> = emptyMap(), cancel: CancellationToken? = null): Isochrones {
        origins.forEachIndexed { i, p -> p.check("origins[$i]") }
        val body = LinkedHashMap<String, Any?>(extra)
        body["origins"] = origins.map { it.toString() }
        body["contours"] = contours
        return Isochrones.of(ok(t.post("isochrones", "/isochronev1/isochrone", body, cancel)))
    }

    /**
     * The areas reachable from p within each contour (isochronev1/isochrone):
     * minutes for metric "time" (default), kilometres for "distance".
     */
    @JvmOverloads
    @Operation("isochrone")
    fun isochrone(p: Point, contours: List<Double>, metric: String? = null, polygons: Boolean? = null, reverse: Boolean? = null,
                  profile: String? = null, cancel: CancellationToken? = null): Isochrones {
        p.check()
        val cs = contours.joinToString(",") { if (it == Math.rint(it)) it.toLong().toString() else it.toString() }
        return Isochrones.of(ok(t.get("isochrone", "/isochronev1/isochrone", listOf("x" to p.lon, "y" to p.lat, "contours" to cs,
            "metric" to metric, "polygons" to polygons, "reverse" to reverse, "profile" to profile), cancel)))
    }

    /**
     * Matches a GPS trace to the roads (matchv1/match). extra holds the
     * request's other members (radiuses, gaps, tidy, routing, profile) as
     * api/openapi.yaml gives them. A trace with no road near is an
     * [ApiException] of status 404.
     */
    @JvmOverloads
    @Operation("match")
    fun match(points: List<Point>, extra: Map<String, Any?> = emptyMap(), cancel: CancellationToken? = null): MatchResult {
        points.forEachIndexed { i, p -> p.check("points[$i]") }
        val body = LinkedHashMap<String, Any?>(extra)
        body["points"] = points.map { mapOf("lon" to it.lon, "lat" to it.lat) }
        return MatchResult.of(ok(t.post("match", "/matchv1/match", body, cancel)))
    }

    /** Applies for a free-trial key (keysv1/trial; no key needed): the key is in the answer, shown only once. */
    @JvmOverloads
    @Operation("keysTrial")
    fun trial(email: String, name: String? = null, company: String? = null, cancel: CancellationToken? = null): TrialKey {
        val body = LinkedHashMap<String, Any?>()
        body["email"] = email
        if (name != null) body["name"] = name
        if (company != null) body["company"] = company
        val o = ok(t.post("trial", "/keysv1/trial", body, cancel), 201)
        return TrialKey(o.string("key_id"), o.string("api_key"), o.string("plan"), o.string("expires"))
    }

    /**
     * Starts the purchase of a plan (keysv1/checkout; no key needed for a
     * new key, which the answer holds, working once paid; with this
     * client's key, an upgrade of it).
     */
    @JvmOverloads
    @Operation("keysCheckout")
    fun checkout(plan: String, email: String? = null, cancel: CancellationToken? = null): CheckoutStarted {
        val body = LinkedHashMap<String, Any?>()
        body["plan"] = plan
        if (email != null) body["email"] = email
        val o = ok(t.post("checkout", "/keysv1/checkout", body, cancel))
        return CheckoutStarted(o.string("session_id"), o.string("checkout_url"), o.string("key_id"), o.stringOrNull("api_key"))
    }

    /** The key's usage statement of month ("2026-11"; null: the current one) (keysv1/usage). */
    @JvmOverloads
    @Operation("keysUsage")
    fun usage(month: String? = null, cancel: CancellationToken? = null): Statement =
        Statement.of(ok(t.get("usage", "/keysv1/usage", listOf("month" to month), cancel)))

    /**
     * Orders the time-distance matrix from every origin to every destination
     * (tdmv1/order; points sent "lon,lat") and returns the job's uuid.
     */
    @JvmOverloads
    @Operation("tdmOrder")
    fun orderMatrix(origins: List<Point>, destinations: List<Point>, opts: MatrixOptions = MatrixOptions(), cancel: CancellationToken? = null): String {
        origins.forEachIndexed { i, p -> p.check("origin $i") }
        destinations.forEachIndexed { i, p -> p.check("destination $i") }
        val body = LinkedHashMap<String, Any?>()
        body["origin_addresses"] = origins.map { it.toString() }
        body["destination_addresses"] = destinations.map { it.toString() }
        if (opts.durations != opts.distances) body["result"] = listOf(if (opts.durations) "duration" else "distance")
        if (opts.routing != null) body["routing"] = opts.routing
        for ((k, v) in opts.extra) if (k !in body) body[k] = v
        return ok(t.post("tdm-order", "/tdmv1/order", body, cancel)).string("uuid")
    }

    /**
     * Fetches a job once (tdmv1/fetch), the server holding the request up
     * to waitSeconds (0: not at all; at most 30) for the job to end. A
     * Finished job is a [MatrixResult], else its [JobState] (Queued,
     * Processing); a Failed or Cancelled job is a [JobException], as is an
     * expired one (410).
     */
    @JvmOverloads
    @Operation("tdmFetch")
    fun fetchMatrix(uuid: String, waitSeconds: Double = 0.0, cancel: CancellationToken? = null): Any {
        val body = LinkedHashMap<String, Any?>()
        body["uuid"] = uuid
        if (waitSeconds > 0) body["wait"] = Math.min(waitSeconds, 30.0)
        val a = t.post("tdm-fetch", "/tdmv1/fetch", body, cancel)
        if (a.status == 410) throw JobException(uuid, JobStatus.Expired, null, a.error())
        val o = ok(a)
        val st = o.string("status")
        if (st == "Finished") return MatrixResult.of(o)
        val s = jobState(o)
        if (s.status == JobStatus.Failed || s.status == JobStatus.Cancelled) throw JobException(uuid, s.status, s.message, state = s)
        return s
    }

    /** Cancels a Queued or Processing job (tdmv1/cancel); a job already ended is an [ApiException] of status 409. */
    @JvmOverloads
    @Operation("tdmCancel")
    fun cancelMatrix(uuid: String, cancel: CancellationToken? = null): JobState =
        jobState(ok(t.post("tdm-cancel", "/tdmv1/cancel", mapOf("uuid" to uuid), cancel)))

    private fun jobState(o: JsonObject): JobState {
        val st = o.string("status")
        val status = JobStatus.values().firstOrNull { it.name == st && it != JobStatus.Expired }
            ?: throw MalformedAnswerException("${o.path}.status: unknown job status \"$st\"")
        val p = o.obj("progress")
        return JobState(o.string("uuid"), status, o.stringOrNull("message"), p.long("rows_done"), p.long("rows_total"))
    }

    /**
     * Orders the matrix, waits for it (long-polling tdmv1/fetch) and
     * returns it. A job that Failed, was Cancelled or expired is a
     * [JobException]. When cancel is cancelled first, the job is cancelled
     * on the server too (unless opts.keepOnCancel) and the call fails with
     * a [CancelledException].
     */
    @JvmOverloads
    @Operation("tdmOrder", "tdmFetch", "tdmCancel")
    fun matrix(origins: List<Point>, destinations: List<Point>, opts: MatrixOptions = MatrixOptions(), cancel: CancellationToken? = null): MatrixResult {
        val uuid = orderMatrix(origins, destinations, opts, cancel)
        opts.onOrder?.invoke(uuid)
        val wait = if (opts.waitSeconds > 0) opts.waitSeconds else 20.0
        while (true) {
            val got = try {
                if (cancel?.isCancelled == true) throw CancelledException("matrix")
                fetchMatrix(uuid, wait, cancel)
            } catch (e: CancelledException) {
                if (!opts.keepOnCancel) {
                    try { cancelMatrix(uuid) } catch (_: GeosvcException) { } // best effort: the job may have ended
                }
                throw CancelledException("matrix $uuid")
            }
            if (got is MatrixResult) return got
            opts.onProgress?.invoke(got as JobState)
        }
    }
}

/** The choices of a matrix order and of its wait; the defaults order both matrices of fastest routes. */
class MatrixOptions {
    /** Select the matrices; both false (or both true): both. */
    var durations = false
    var distances = false
    /** null (fastest), "shortest", "efficient", "safest". */
    var routing: String? = null
    /** How long one fetch waits on the server (0: 20 s; at most 30). */
    var waitSeconds = 0.0
    /** Called with the job's uuid once it is ordered. */
    var onOrder: ((String) -> Unit)? = null
    /** Called with each status fetched before the job ends. */
    var onProgress: ((JobState) -> Unit)? = null
    /** Leave the job running on the server when the call is cancelled. */
    var keepOnCancel = false
    /**
     * The order's other members as api/openapi.yaml's TDMOrder gives them
     * (speeds, avoid, profile, vehicle, departure_time, fallback_speed,
     * origin_radiuses...); the points, result and routing above win.
     */
    var extra: Map<String, Any?> = emptyMap()
}
