package io.github.geosvc.tests

import io.github.geosvc.AdminLevel
import io.github.geosvc.ApiException
import io.github.geosvc.CancellationToken
import io.github.geosvc.CancelledException
import io.github.geosvc.ClientOptions
import io.github.geosvc.ForbiddenException
import io.github.geosvc.GeosvcClient
import io.github.geosvc.JobException
import io.github.geosvc.JobStatus
import io.github.geosvc.Json
import io.github.geosvc.MatrixOptions
import io.github.geosvc.MatrixResult
import io.github.geosvc.Point
import io.github.geosvc.RouteOptions
import java.net.HttpURLConnection
import java.net.URL
import java.text.SimpleDateFormat
import java.util.Collections
import java.util.Date
import java.util.TimeZone
import java.util.concurrent.CountDownLatch
import java.util.concurrent.TimeUnit

/**
 * Every call against a live geosvc (GEOSVC_TEST_URL, GEOSVC_TEST_KEY: the
 * Go test sdk/go/kotlin_test.go starts one on the Delaware bundle), with
 * the values the Go SDK's tests check. REST answers fetched by hand are
 * the oracle of the SDK's.
 */
object LiveTests {
    private val dover = Point(-75.5244, 39.1582)
    private val wilmington = Point(-75.5466, 39.7447)
    private val bombayHook = Point(-75.47, 39.26)

    private val base: String? get() = System.getenv("GEOSVC_TEST_URL")
    private val key: String get() = System.getenv("GEOSVC_TEST_KEY") ?: ""

    private fun url(): String = base ?: T.skip("GEOSVC_TEST_URL is not set (sdk/go's TestKotlinSDK sets it)")
    private fun client(k: String = key, o: ClientOptions = ClientOptions()) = GeosvcClient(url(), k, o)

    /** A request by hand: status and the JSON body. */
    private fun rest(method: String, path: String, k: String?, body: Any? = null): Pair<Int, Any?> {
        val c = URL(url().trimEnd('/') + path).openConnection() as HttpURLConnection
        c.requestMethod = method
        if (k != null) c.setRequestProperty("x-api-key", k)
        if (body != null) {
            c.doOutput = true
            c.setRequestProperty("Content-Type", "application/json")
            c.outputStream.use { it.write(Json.write(body).toByteArray()) }
        }
        val st = c.responseCode
        val text = (if (st >= 400) c.errorStream else c.inputStream)?.use { String(it.readBytes(), Charsets.UTF_8) } ?: ""
        c.disconnect()
        return st to (if (text.length == 0 || !text.trimStart().startsWith("{")) null else Json.parse(text))
    }

    private fun haversine(a: Point, b: Point): Double {
        val r = 6371008.8
        val p1 = Math.toRadians(a.lat)
        val p2 = Math.toRadians(b.lat)
        val dp = p2 - p1
        val dl = Math.toRadians(b.lon - a.lon)
        val h = Math.sin(dp / 2) * Math.sin(dp / 2) + Math.cos(p1) * Math.cos(p2) * Math.sin(dl / 2) * Math.sin(dl / 2)
        return 2 * r * Math.asin(Math.sqrt(h))
    }

    /** The slippy-map tile of p at zoom z. */
    private fun slippy(p: Point, z: Int): Pair<Int, Int> {
        val n = Math.pow(2.0, z.toDouble())
        val x = ((p.lon + 180) / 360 * n).toInt()
        val lat = Math.toRadians(p.lat)
        val y = ((1 - Math.log(Math.tan(lat) + 1 / Math.cos(lat)) / Math.PI) / 2 * n).toInt()
        return x to y
    }

    private fun email(what: String) = "kotlin-$what-${System.nanoTime()}@example.com"

    fun register() {
        T.test("LiveInfo") {
            val i = client().info()
            for (want in listOf("adminv1", "covidv1", "geoboundariesv1", "geocoderv1", "keysv1", "routev1", "tdmv1", "tilesv1", "timezonesv1", "zip4v1"))
                T.check(want in i.interfaces) { "interfaces ${i.interfaces} lack $want" }
            T.eq(i.dataName, "delaware-latest", "bundle")
        }
        T.test("LiveTimeZone") {
            val tz = client().timeZone(dover)
            T.eq(tz.name, "America/New_York", "Dover's zone")
            T.eq(tz.utcOffset, "UTC-05:00", "Dover's offset")
            T.check(tz.hasDaylightSavingTime) { "Dover without DST" }
        }
        T.test("LiveAdmin") {
            val a = client().admin(dover, AdminLevel.Admin5)
            T.eq(a.area?.name, "Kent County", "Dover admin5")
            // The top-level bbox is written latitude first: read the other way round it would not hold Dover.
            T.check(a.bounds?.contains(dover) == true && a.area?.bounds?.contains(dover) == true) { "Kent County bounds ${a.bounds} / ${a.area?.bounds}" }
        }
        T.test("LiveZip4") {
            val c = client()
            val z = c.zip4(dover)
            T.eq(z.areas.firstOrNull()?.zip9, "199010936", "Dover ZIP+4")
            T.check(z.bounds?.contains(dover) == true) { "bounds ${z.bounds}" }
            T.eq(c.zip4Code("199010936").areas.firstOrNull()?.zip, "19901", "by code")
        }
        T.test("LiveGeocoder") {
            val c = client()
            val g = c.geocode("Dover, DE")
            val loc = g.results.firstOrNull()?.location ?: T.fail("Dover, DE: no result")
            T.check(haversine(dover, loc) <= 3000) { "Dover, DE at $loc, ${haversine(dover, loc)} m from Dover" }
            val r = c.reverseGeocode(dover)
            T.check(r.results.firstOrNull()?.formattedAddress?.contains("Dover, DE") == true) { "reverse: ${r.results.firstOrNull()}" }
            val e = T.throws<ApiException>("empty address") { c.geocode("") }
            T.eq(e.geocoderStatus, "INVALID_REQUEST", "geocoder status")
        }
        T.test("LiveSearchAndBatches") {
            val c = client()
            // Rehoboth Beach's town node first for "Rehob" (the Go SDK's and the docs' example).
            val ac = c.autocomplete("Rehob", limit = 5, layers = listOf("place", "street"))
            T.check(ac.results.firstOrNull()?.formattedAddress?.startsWith("Rehoboth Beach") == true) { "Rehob: ${ac.results.map { it.formattedAddress }}" }
            val e = T.throws<ApiException>("empty text") { c.autocomplete("") }
            T.eq(e.status, 400, "empty text status")
            // The batch answers equal the single requests, in order.
            val addrs = listOf("Dover, DE", "Loockerman Street, Dover")
            val batch = c.geocodeBatch(addrs)
            T.eq(batch.size, 2, "batch size")
            for ((i, a) in addrs.withIndex())
                T.eq(batch[i].results.firstOrNull()?.formattedAddress, c.geocode(a).results.firstOrNull()?.formattedAddress, "batch item $i")
            // Dover on 15 July 2026 12:00 UTC: EDT, raw -5 h, DST +1 h.
            val at = c.timeZoneAt(dover, 1784116800L)
            T.eq(at.raw.longOrNull("raw_offset_s"), -18000L, "raw offset")
            T.eq(at.raw.longOrNull("dst_offset_s"), 3600L, "DST offset")
            T.eq(at.raw.stringOrNull("time_zone_id"), "America/New_York", "zone id")
            // The hierarchy at Dover, admin0 first; Delaware named in Russian with lang=ru.
            val h = c.adminHierarchy(dover)
            T.eq(h.firstOrNull()?.stringOrNull("name"), "United States of America", "admin0")
            T.check(h.any { it.stringOrNull("name") == "Kent County" }) { "no Kent County in ${h.map { it.stringOrNull("name") }}" }
            T.check(c.adminHierarchy(dover, lang = "ru").any { it.stringOrNull("name") == "Делавэр" }) { "no Делавэр" }
            // A 300 x 200 static map: a PNG of that size.
            val png = c.staticMap(mapOf("center" to "-75.5244,39.1582", "zoom" to 13, "size" to "300x200"))
            val img = javax.imageio.ImageIO.read(java.io.ByteArrayInputStream(png))
            T.check(img != null && img.width == 300 && img.height == 200) { "static map ${img?.width}x${img?.height}" }
        }
        T.test("LiveGeoBoundaries") {
            val c = client()
            val bs = c.geoBoundaries(bombayHook)
            T.eq(bs.firstOrNull()?.name, "Bombay Hook National Wildlife Refuge", "Bombay Hook")
            T.eq(bs.firstOrNull()?.categoryCode, 922, "category")
            T.eq(c.geoBoundaries(bombayHook, 921).size, 0, "protected_area")
        }
        T.test("LiveCovid") {
            val c = client()
            T.eq(c.covidAt(dover, "admin2")["p0"]?.name, "Kent", "Dover admin2")
            T.check(c.covidCountries().any { it.iso3 == "USA" }) { "countries lack USA" }
            val (x, y) = slippy(dover, 16)
            val tile = c.covidTileAt(dover, 16)
            T.eq(tile.x to tile.y, x to y, "tile of Dover")
            T.eq(c.covidTile(x, y, 16).id, tile.id, "index2tile")
            T.check(c.covidCountry("USA", "admin1").any { it.name == "Delaware" }) { "USA admin1 lacks Delaware" }
        }
        T.test("LiveRouteEqualsREST") {
            val r = client().route(dover, wilmington)
            val (st, want) = rest("GET", "/routev1/route?from=-75.5244,39.1582&to=-75.5466,39.7447", key)
            T.eq(st, 200, "REST status")
            T.eq(r.raw.map, want, "SDK route against the REST answer")
            T.check(r.distance > haversine(dover, wilmington)) { "route ${r.distance} m shorter than the straight line" }
            T.check(r.steps.first().maneuver == "depart" && r.steps.last().maneuver == "arrive") { "steps ${r.steps}" }
            val e = T.throws<ApiException>("a speed of no road type") { client().route(dover, wilmington, speeds = mapOf("Autobahn" to 120.0)) }
            T.check(e.isValidation && e.serverMessage.contains("RoadType")) { "${e.message}" }
        }
        T.test("LiveMatrixEqualsREST") {
            val origins = listOf(dover, wilmington, Point(-75.7527, 39.6837))
            val dests = listOf(Point(-75.1391, 38.7746), dover, wilmington)
            var progress = 0
            var ordered: String? = null
            val got = client().matrix(origins, dests, MatrixOptions().apply { waitSeconds = 1.0; onProgress = { progress++ }; onOrder = { ordered = it } })
            T.eq(got.uuid, ordered, "onOrder's uuid")
            val order = mapOf("origin_addresses" to listOf("-75.5244,39.1582", "-75.5466,39.7447", "-75.7527,39.6837"),
                "destination_addresses" to listOf("-75.1391,38.7746", "-75.5244,39.1582", "-75.5466,39.7447"))
            val (st, acc) = rest("POST", "/tdmv1/order", key, order)
            T.eq(st, 200, "REST order")
            val uuid = (acc as Map<*, *>)["uuid"] as String
            var want: Map<*, *>? = null
            val deadline = System.currentTimeMillis() + 60_000
            while (want == null && System.currentTimeMillis() < deadline) {
                val (fs, f) = rest("POST", "/tdmv1/fetch", key, mapOf("uuid" to uuid, "wait" to 5))
                T.eq(fs, 200, "REST fetch")
                if ((f as Map<*, *>)["status"] == "Finished") want = f
            }
            if (want == null) T.fail("REST matrix not Finished in 60 s")
            T.eq(got.durations, want["duration"], "durations against REST")
            T.eq(got.distances, want["distance"], "distances against REST")
            T.eq(got.distances?.get(0)?.get(1), 0L, "Dover to Dover")
            T.eq(got.originAddresses[0], "-75.5244,39.1582", "origin written lon,lat")
        }
        T.test("LiveMatrixPieces") {
            val c = client()
            val uuid = c.orderMatrix(listOf(dover), listOf(wilmington), MatrixOptions().apply { distances = true })
            var r: Any = c.fetchMatrix(uuid, 10.0)
            val deadline = System.currentTimeMillis() + 60_000
            while (r !is MatrixResult && System.currentTimeMillis() < deadline) r = c.fetchMatrix(uuid, 10.0)
            val m = r as? MatrixResult ?: T.fail("not Finished: $r")
            T.check(m.distances != null && m.durations == null) { "want the distances alone: ${m.raw}" }
            val e = T.throws<ApiException>("cancel a Finished job") { c.cancelMatrix(uuid) }
            T.eq(e.status, 409, "status")
            T.throws<IllegalArgumentException>("bad origin") { c.orderMatrix(listOf(Point(200.0, 0.0)), listOf(dover)) }
            val v = T.throws<ApiException>("too many origins") { c.orderMatrix(List(100_000) { dover }, listOf(dover)) }
            T.check(v.status == 400 || v.status == 413) { "100000 origins: ${v.message}" }
        }
        T.test("LiveMatrixExpired") {
            // The test server keeps a job 5 s (tdm.retention): fetched after it, a JobException Expired carrying the 410.
            val c = client()
            val uuid = c.orderMatrix(listOf(dover), listOf(wilmington))
            val r = c.fetchMatrix(uuid, 4.0)
            T.check(r is MatrixResult) { "fetch: $r, want Finished" }
            Thread.sleep(6500)
            val e = T.throws<JobException>("fetch after the retention") { c.fetchMatrix(uuid) }
            T.eq(e.jobStatus, JobStatus.Expired, "status")
            T.eq((e.cause as? ApiException)?.status, 410, "the 410")
        }
        T.test("LiveMatrixExtraEqualsREST") {
            // tdmv1's other order members through MatrixOptions.extra: a matrix avoiding motorways with a fallback speed.
            val origins = listOf(dover, wilmington)
            val extra = mapOf("avoid" to listOf("motorway"), "fallback_speed" to 30)
            val got = client().matrix(origins, origins, MatrixOptions().apply { this.extra = extra; waitSeconds = 5.0 })
            val order = LinkedHashMap<String, Any?>(extra)
            order["origin_addresses"] = listOf("-75.5244,39.1582", "-75.5466,39.7447")
            order["destination_addresses"] = listOf("-75.5244,39.1582", "-75.5466,39.7447")
            val (st, acc) = rest("POST", "/tdmv1/order", key, order)
            T.eq(st, 200, "REST order")
            val uuid = (acc as Map<*, *>)["uuid"] as String
            var want: Map<*, *>? = null
            val deadline = System.currentTimeMillis() + 60_000
            while (want == null && System.currentTimeMillis() < deadline) {
                val (_, f) = rest("POST", "/tdmv1/fetch", key, mapOf("uuid" to uuid, "wait" to 5))
                if ((f as Map<*, *>)["status"] == "Finished") want = f
            }
            val w = want ?: T.fail("REST matrix not Finished in 60 s")
            T.eq(got.durations, w["duration"], "durations against REST")
            T.eq(got.raw.map["estimated"], w["estimated"], "estimated cells against REST")
            val plain = client().matrix(origins, origins)
            // Without the members the matrix differs (DE 1, the motorway between Dover and Wilmington): they were sent.
            T.check(plain.durations != got.durations) { "avoiding motorways changed nothing: ${plain.durations} ${got.durations}" }
        }
        T.test("LiveMatrixCancel") {
            // A 1000 x 1000 job cancelled 20 ms after its order, while the client waits (the fetch goes out at once):
            // CancelledException at once, the job Cancelled on the server (it takes some 0.5 s here).
            val pts = List(1000) { i -> Point(-75.75 + (i % 40) * 0.0125, 38.8 + (i / 40) * 0.035) }
            val tok = CancellationToken()
            var uuid: String? = null
            val start = System.nanoTime()
            T.throws<CancelledException>("matrix after cancel") {
                client().matrix(pts, pts, MatrixOptions().apply { onOrder = { uuid = it; Thread { Thread.sleep(20); tok.cancel() }.start() } }, tok)
            }
            val ms = (System.nanoTime() - start) / 1_000_000
            val id = uuid ?: T.fail("no uuid")
            val e = T.throws<JobException>("job after the cancel") { client().fetchMatrix(id) }
            T.eq(e.jobStatus, JobStatus.Cancelled, "job status")
            val s = e.state ?: T.fail("no state")
            T.check(s.rowsDone < s.rowsTotal) { "cancelled job's progress $s: every row done (in $ms ms)" }
        }
        T.test("LiveForbidden") {
            val c = client("gs_not_a_key_of_this_server_0123456789")
            val calls = listOf<Pair<String, () -> Any>>(
                "timezonesv1" to { c.timeZone(dover) }, "adminv1" to { c.admin(dover, AdminLevel.Admin8) }, "zip4v1" to { c.zip4(dover) },
                "tdmv1" to { c.matrix(listOf(dover), listOf(wilmington)) }, "keysv1" to { c.usage() }, "routev1" to { c.route(dover, wilmington) }
            )
            for ((name, call) in calls) {
                val e = T.throws<ForbiddenException>(name) { call() }
                T.check(e.status == 403 && e.serverMessage == "Forbidden") { "$name: ${e.message}" }
            }
        }
        T.test("LiveRetry429") {
            val k = client("").trial(email("retry"))
            T.eq(k.plan, "slow", "trial plan")
            val statuses = Collections.synchronizedList(ArrayList<Int>())
            val c = client(k.apiKey, ClientOptions().apply { onAnswer = { _, st -> statuses.add(st) } })
            val path = "/timezonesv1/xy2tzdata?x=-75.5244&y=39.1582"
            // The plan allows one request a second: a request by hand drains it, the SDK's is refused, waits and retries.
            for (attempt in 0 until 3) {
                statuses.clear()
                rest("GET", path, k.apiKey)
                T.eq(c.timeZone(dover).name, "America/New_York", "zone")
                val st = statuses.toList()
                if (st.size >= 2 && st[0] == 429 && st.last() == 200) break
                if (attempt == 2) T.fail("answers $st, want 429 then 200")
            }
            val noRetry = client(k.apiKey, ClientOptions().apply { maxRetries = 0 })
            for (attempt in 0 until 3) {
                rest("GET", path, k.apiKey)
                try {
                    noRetry.timeZone(dover)
                } catch (e: ApiException) {
                    T.check(e.status == 429 && (e.retryAfterMillis ?: 0) >= 1000 && e.serverMessage.contains("rate limit")) { "429: ${e.message} ${e.retryAfterMillis}" }
                    break
                }
                if (attempt == 2) T.fail("without retries: no 429")
                Thread.sleep(1100)
            }
        }
        T.test("LiveTiles") {
            val c = client()
            val (x, y) = slippy(dover, 14)
            val png = c.tile(14, x, y)
            val img = javax.imageio.ImageIO.read(java.io.ByteArrayInputStream(png)) ?: T.fail("tile 14/$x/$y: not an image")
            T.check(img.width == 256 && img.height == 256) { "tile 14/$x/$y: ${img.width} x ${img.height}" }
            val tok = c.tileToken()
            val f = SimpleDateFormat("yyyy-MM-dd'T'HH:mm:ss").apply { timeZone = TimeZone.getTimeZone("UTC") }
            val exp = f.parse(tok.expiresAt.take(19)).time
            T.check(tok.token.isNotEmpty() && exp - System.currentTimeMillis() > 50 * 60_000) { "token $tok" }
            val byToken = client("").tile(14, x, y, tok.token)
            T.check(byToken.contentEquals(png)) { "the tile by token differs from the tile by key" }
        }
        T.test("LiveKeys") {
            val c = client()
            val s = c.usage()
            val month = SimpleDateFormat("yyyy-MM").apply { timeZone = TimeZone.getTimeZone("UTC") }.format(Date())
            T.check(s.plan == "internal" && s.month == month) { "statement ${s.raw}" }
            c.timeZone(dover)
            val s2 = c.usage()
            T.check(s2.metrics.any { it.metric == "timezonesv1" && it.count >= 1 }) { "no timezonesv1 in ${s2.metrics}" }
            // Each metric's total is the sum of its days (one answer: the server's own arithmetic, read field by field).
            for (m in s2.metrics) {
                val lines = s2.days.filter { it.metric == m.metric }
                T.eq(lines.map { it.count }.sum(), m.count, "${m.metric}: count of the days")
                T.eq(lines.map { it.billable }.sum(), m.billable, "${m.metric}: billable of the days")
                T.eq(lines.map { it.amount }.sum(), m.amount, "${m.metric}: amount of the days")
            }
            T.eq(s2.total, s2.baseFee + s2.usageAmount, "total")
            val k = c.trial(email("keys"), name = "SDK test")
            T.check(k.plan == "slow" && k.apiKey.startsWith("gs_")) { "trial $k" }
            val e = T.throws<ApiException>("bad e-mail") { c.trial("not an address") }
            T.check(e.isValidation) { "${e.message}" }
        }
        T.test("LiveIsochrone") {
            val iso = client().isochrone(dover, listOf(5.0, 10.0))
            T.eq(iso.contours.map { it.value }.sorted(), listOf(5.0, 10.0), "contours")
            T.check(iso.contours.all { it.metric == "time" && it.geometry != null }) { "contours ${iso.raw}" }
        }
        T.test("LiveMatchEqualsREST") {
            val pts = listOf(Point(-75.56176, 39.73006), Point(-75.56144, 39.73433), Point(-75.55803, 39.73910),
                Point(-75.55200, 39.73770), Point(-75.54893, 39.73866), Point(-75.54518, 39.74606))
            val m = client().match(pts)
            val (st, want) = rest("POST", "/matchv1/match", key, mapOf("points" to pts.map { mapOf("lon" to it.lon, "lat" to it.lat) }))
            T.eq(st, 200, "REST status")
            T.eq(m.raw.map, want, "SDK match against REST")
            T.check(m.matchings.size == 1 && Math.abs(m.matchings[0].distance - 3065) < 150) { "matchings ${m.matchings}" }
        }
        T.test("LiveRouteOptionsEqualREST") {
            val c = client()
            val newark = Point(-75.75, 39.68)
            val wilm = Point(-75.55, 39.74)
            val r = c.routeWith(newark, wilm, RouteOptions().apply { alternatives = 1; avoid = listOf("toll"); routing = "shortest" })
            val (st, want) = rest("GET", "/routev1/route?from=-75.75,39.68&to=-75.55,39.74&alternatives=1&avoid=toll&routing=shortest", key)
            T.eq(st, 200, "REST status")
            T.eq(r.raw.map, want, "SDK route with options against REST")
            T.eq(r.routing, "shortest", "routing")
        }
        // RouteOptions.lang reaches routev1's lang: the answer equals the REST answer with lang=de.
        // Delaware's car ways carry no name:xx (sdk/go's TestRouteLang), so the streets keep their
        // names and the answer has no lang; a malformed tag is the server's 400 naming lang, which
        // only a request carrying it can get.
        T.test("LiveRouteLangEqualsREST") {
            val c = client()
            val r = c.routeWith(dover, wilmington, RouteOptions().apply { lang = "de" })
            val (st, want) = rest("GET", "/routev1/route?from=-75.5244,39.1582&to=-75.5466,39.7447&lang=de", key)
            T.eq(st, 200, "REST status")
            T.eq(r.raw.map, want, "SDK route with lang de against REST")
            T.eq(r.lang, null, "lang (no name:de on Delaware)")
            val e = T.throws<ApiException>("lang de_DE") { c.routeWith(dover, wilmington, RouteOptions().apply { lang = "de_DE" }) }
            T.eq(e.status, 400, "lang de_DE status")
            T.check(e.serverMessage.contains("lang")) { "lang de_DE: ${e.serverMessage}, want the 400 naming lang" }
        }
        T.test("LiveOSRMAndCall") {
            val c = client()
            val o = c.osrm("route", "car", listOf(dover, wilmington), mapOf("overview" to "false"))
            val (st, want) = rest("GET", "/osrm/route/v1/car/-75.5244,39.1582;-75.5466,39.7447?overview=false", key)
            T.eq(st, 200, "REST status")
            T.eq(o.map, want, "SDK osrm route against REST")
            T.eq(o.string("code"), "Ok", "code")
            val e = T.throws<ApiException>("an OSRM error") { c.osrm("route", "car", listOf(dover)) }
            T.check(e.status == 400 && e.serverMessage.isNotEmpty()) { "one coordinate: ${e.message}" }
            val tz = c.call("GET", "/timezonesv1/xy2tzdata", mapOf("x" to -75.5244, "y" to 39.1582))
            T.eq(tz.obj("local_area").string("time_zone"), "UTC-05:00", "call()")
        }
        T.test("LiveOSRMTyped") {
            val c = client()
            val r = c.osrmRoute(listOf(dover, wilmington), options = mapOf("overview" to "false"))
            val (_, want) = rest("GET", "/osrm/route/v1/car/-75.5244,39.1582;-75.5466,39.7447?overview=false", key)
            val w = JsonTests.obj(want)
            val wr = w.objects("routes")[0]
            T.eq(r.routes[0].distance, wr.double("distance"), "route distance")
            T.eq(r.routes[0].duration, wr.double("duration"), "route duration")
            T.eq(r.routes[0].legCount, 1, "legs")
            T.eq(r.waypoints.size, 2, "waypoints")
            T.check(r.waypoints[0].distance < 500 && Math.abs(r.waypoints[0].location.lon - dover.lon) < 0.01) { "waypoint ${r.waypoints[0]}" }
            // routev1 and OSRM answer from the same graph: the same route within the rounding.
            val rv1 = c.route(dover, wilmington)
            T.check(Math.abs(r.routes[0].distance - rv1.distance) <= 2) { "OSRM ${r.routes[0].distance} m, routev1 ${rv1.distance} m" }
            val pts = listOf(dover, wilmington, Point(-75.7527, 39.6837))
            val t = c.osrmTable(pts, options = mapOf("annotations" to "duration,distance"))
            val (_, tw) = rest("GET", "/osrm/table/v1/car/-75.5244,39.1582;-75.5466,39.7447;-75.7527,39.6837?annotations=duration,distance", key)
            T.eq(t.durations, (tw as Map<*, *>)["durations"].let { d -> (d as List<*>).map { row -> (row as List<*>).map { (it as Number?)?.toDouble() } } }, "table durations")
            T.eq(t.distances?.get(0)?.get(0), 0.0, "Dover to Dover")
            T.eq(t.sources.size, 3, "sources")
        }
        T.test("LiveIsochronesPOST") {
            val iso = client().isochrones(listOf(dover, wilmington), listOf(5.0))
            T.eq(iso.contours.map { it.origin }.sorted(), listOf(0, 1), "one contour per origin")
        }
        T.test("LiveCheckout") {
            val e = T.throws<ApiException>("checkout without a payment provider") { client().checkout("slow") }
            T.check(e.status == 404 && e.serverMessage.contains("not sold online")) { "${e.message}" }
        }
        T.test("LiveFromJava") {
            val problem = JavaUse.run(url(), key)
            if (problem != null) T.fail("from Java: $problem")
        }
        T.test("LiveEnqueue") {
            val c = client()
            val done = CountDownLatch(1)
            var name: String? = null
            var thread: Thread? = null
            c.enqueue({ tok -> c.timeZone(dover, tok) }, { v -> name = v.name; thread = Thread.currentThread(); done.countDown() }, { e -> T.error("$e"); done.countDown() })
            T.check(done.await(30, TimeUnit.SECONDS)) { "no callback" }
            T.eq(name, "America/New_York", "async zone")
            T.check(thread != null && thread !== Thread.currentThread()) { "callback on the caller's thread" }
        }
    }
}
