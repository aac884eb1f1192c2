package io.github.geosvc.tests

import com.sun.net.httpserver.HttpExchange
import com.sun.net.httpserver.HttpServer
import io.github.geosvc.ApiException
import io.github.geosvc.CancellationToken
import io.github.geosvc.CancelledException
import io.github.geosvc.ClientOptions
import io.github.geosvc.ForbiddenException
import io.github.geosvc.GeosvcClient
import io.github.geosvc.GeosvcException
import io.github.geosvc.MalformedAnswerException
import io.github.geosvc.NetworkException
import io.github.geosvc.Point
import io.github.geosvc.RouteOptions
import io.github.geosvc.MatrixOptions
import io.github.geosvc.TimeZoneInfo
import java.net.InetSocketAddress
import java.util.Collections
import java.util.concurrent.CountDownLatch
import java.util.concurrent.Executors
import java.util.concurrent.TimeUnit

/**
 * The client against a scripted HTTP server of the JDK (com.sun.net.httpserver):
 * answers the real server does not give on demand (a truncated body, wrong
 * types, 503s, a quota's 429, a proxy's HTML page, a request that hangs).
 */
object FakeServerTests {
    /** An answer of the scripted server: bytes, when given, is the body instead of body's UTF-8. */
    class Scripted(val status: Int, val body: String, val headers: Map<String, String> = emptyMap(), val delayMs: Long = 0, val bytes: ByteArray? = null)

    /** Serves the answers in turn (the last one repeated); returns the base URL and the requests' paths and keys. */
    fun serve(vararg answers: Scripted, block: (base: String, seen: MutableList<String>) -> Unit) {
        val s = HttpServer.create(InetSocketAddress("127.0.0.1", 0), 0)
        s.executor = Executors.newCachedThreadPool()
        val seen = Collections.synchronizedList(ArrayList<String>())
        var n = 0
        s.createContext("/") { ex: HttpExchange ->
            val a = synchronized(seen) { answers[Math.min(n++, answers.size - 1)] }
            seen.add(ex.requestMethod + " " + ex.requestURI + " key=" + ex.requestHeaders.getFirst("x-api-key") +
                (if (ex.requestMethod == "POST") " " + String(ex.requestBody.readBytes(), Charsets.UTF_8) else ""))
            try {
                if (a.delayMs > 0) Thread.sleep(a.delayMs)
                a.headers.forEach { (k, v) -> ex.responseHeaders.add(k, v) }
                val b = a.bytes ?: a.body.toByteArray(Charsets.UTF_8)
                ex.sendResponseHeaders(a.status, if (b.isEmpty()) -1 else b.size.toLong())
                if (b.isNotEmpty()) ex.responseBody.use { it.write(b) }
            } catch (e: Exception) {
            } finally {
                ex.close()
            }
        }
        s.start()
        try {
            block("http://127.0.0.1:${s.address.port}/", seen)
        } finally {
            s.stop(0)
            (s.executor as java.util.concurrent.ExecutorService).shutdownNow()
        }
    }

    private val dover = Point(-75.5244, 39.1582)

    private fun fast() = ClientOptions().apply { backoffMillis = 10 }

    fun register() {
        T.test("FakeRequestShape") {
            serve(Scripted(200, JsonTests.tzAnswer, mapOf("X-Time-Zone" to "America/New_York"))) { base, seen ->
                val c = GeosvcClient(base, "k1")
                val tz = c.timeZone(dover)
                T.eq(tz.name, "America/New_York", "X-Time-Zone")
                T.eq(seen[0], "GET /timezonesv1/xy2tzdata?x=-75.5244&y=39.1582 key=k1", "request")
                try { c.zip4(dover) } catch (e: MalformedAnswerException) { } // a time zone's answer
                T.eq(seen[1], "GET /zip4v1/xy2zip?x=39.1582&y=-75.5244 key=k1", "zip4v1 sends x = latitude")
                try {
                    c.routeWith(dover, Point(-75.5466, 39.7447), RouteOptions().apply {
                        departureTime = "2026-11-27T08:00:00+01:00"; speeds = mapOf("Secondary" to 50.0, "Motorway" to 80.5); avoid = listOf("toll", "ferry")
                        lang = "de,fr-CA"
                    })
                } catch (e: MalformedAnswerException) { }
                T.eq(seen[2], "GET /routev1/route?from=-75.5244%2C39.1582&to=-75.5466%2C39.7447&speeds=Motorway%3A80.5%2CSecondary%3A50" +
                    "&avoid=toll%2Cferry&departure_time=2026-11-27T08%3A00%3A00%2B01%3A00&lang=de%2Cfr-CA key=k1", "routev1's options")
                try { c.matrix(listOf(dover), listOf(Point(-75.5466, 39.7447)), MatrixOptions().apply { durations = true; routing = "shortest" }) } catch (e: MalformedAnswerException) { }
                T.eq(seen[3], "POST /tdmv1/order key=k1 {\"origin_addresses\":[\"-75.5244,39.1582\"],\"destination_addresses\":[\"-75.5466,39.7447\"]," +
                    "\"result\":[\"duration\"],\"routing\":\"shortest\"}", "tdmv1 order")
            }
        }
        T.test("FakeMalformed") {
            val bodies = listOf(JsonTests.tzAnswer.dropLast(1), "", "<html>oops</html>", """{"time_zone":"UTC","local_area":{}}""", "[]")
            for (b in bodies) serve(Scripted(200, b)) { base, _ ->
                T.throws<MalformedAnswerException>("200 ${b.take(30)}") { GeosvcClient(base, "k").timeZone(dover) }
            }
        }
        T.test("FakeRetry503") {
            serve(Scripted(503, """{"message":"loading"}""", mapOf("Retry-After" to "0")), Scripted(503, """{"message":"loading"}"""),
                Scripted(200, JsonTests.tzAnswer)) { base, seen ->
                val statuses = Collections.synchronizedList(ArrayList<Int>())
                val c = GeosvcClient(base, "k", fast().apply { onAnswer = { _, st -> statuses.add(st) } })
                c.timeZone(dover)
                T.eq(statuses.toList(), listOf(503, 503, 200), "answers")
                T.eq(seen.size, 3, "requests")
            }
        }
        T.test("FakeRetriesExhausted") {
            serve(Scripted(429, """{"message":"rate limit exceeded"}""", mapOf("Retry-After" to "0"))) { base, seen ->
                val e = T.throws<ApiException>("429 forever") { GeosvcClient(base, "k", fast().apply { maxRetries = 2 }).timeZone(dover) }
                T.eq(e.status, 429, "status")
                T.eq(seen.size, 3, "requests (1 + 2 retries)")
            }
        }
        T.test("FakeQuota") {
            val body = """{"message":"daily quota of timezonesv1 exhausted","quota":{"plan":"free","metric":"timezonesv1","period":"day",""" +
                """"limit":100,"used":100,"requested":1,"resets":"2026-11-29T00:00:00Z"}}"""
            serve(Scripted(429, body, mapOf("Retry-After" to "43200"))) { base, seen ->
                val e = T.throws<ApiException>("quota") { GeosvcClient(base, "k").timeZone(dover) }
                T.eq(seen.size, 1, "a Retry-After beyond the longest wait is not waited for")
                T.eq(e.retryAfterMillis, 43_200_000L, "Retry-After")
                T.eq(e.quota?.limit, 100L, "quota limit")
                T.eq(e.quota?.resets, "2026-11-29T00:00:00Z", "quota resets")
                T.check(e.isTooManyRequests) { "isTooManyRequests" }
            }
        }
        T.test("FakeValidationAndForbidden") {
            val body = """{"message":"origin_addresses[1]: want lon,lat","errors":[{"field":"origin_addresses[1]","reason":"want lon,lat"}]}"""
            serve(Scripted(400, body)) { base, _ ->
                val e = T.throws<ApiException>("400") { GeosvcClient(base, "k").orderMatrix(listOf(dover, dover), listOf(dover)) }
                T.check(e.isValidation && e.serverMessage == "origin_addresses[1]: want lon,lat") { "400: ${e.message}" }
                T.eq(e.fields.map { it.field }, listOf("origin_addresses[1]"), "fields")
            }
            serve(Scripted(403, """{"message":"Forbidden"}""")) { base, _ ->
                val e = T.throws<ForbiddenException>("403") { GeosvcClient(base, "k").usage() }
                T.eq(e.serverMessage, "Forbidden", "message")
            }
            serve(Scripted(502, "<html><body>Bad Gateway</body></html>")) { base, _ ->
                val e = T.throws<ApiException>("502 of a proxy") { GeosvcClient(base, "k").usage() }
                T.check(e.status == 502 && e.serverMessage.contains("Bad Gateway")) { "502: ${e.message}" }
            }
        }
        T.test("FakeBadPointNoRequest") {
            val c = GeosvcClient("http://127.0.0.1:1", "k") // nothing listens
            for (p in listOf(Point(39.1582, -175.5244), Point(Double.NaN, 0.0), Point(181.0, 0.0))) {
                val e = T.throws<IllegalArgumentException>("$p") { c.timeZone(p) }
                T.check(e.message!!.contains("latitude in [-90, 90]")) { "${e.message}" }
            }
            T.throws<NetworkException>("nothing listens") { c.timeZone(dover) }
        }
        T.test("FakeCancelHangingRequest") {
            serve(Scripted(200, JsonTests.tzAnswer, delayMs = 10_000)) { base, _ ->
                val c = GeosvcClient(base, "k")
                val tok = CancellationToken()
                Thread { Thread.sleep(200); tok.cancel() }.start()
                val start = System.nanoTime()
                T.throws<CancelledException>("cancelled") { c.timeZone(dover, tok) }
                val ms = (System.nanoTime() - start) / 1_000_000
                T.check(ms < 3000) { "cancel took $ms ms" }
                T.throws<CancelledException>("a cancelled token") { c.timeZone(dover, tok) }
            }
        }
        T.test("FakeCancelBackoff") {
            serve(Scripted(503, "{\"message\":\"x\"}", mapOf("Retry-After" to "20"))) { base, _ ->
                val tok = CancellationToken()
                Thread { Thread.sleep(200); tok.cancel() }.start()
                val start = System.nanoTime()
                T.throws<CancelledException>("cancelled in the backoff") { GeosvcClient(base, "k").timeZone(dover, tok) }
                T.check((System.nanoTime() - start) / 1_000_000 < 3000) { "backoff not cut short" }
            }
        }
        T.test("FakeEnqueue") {
            serve(Scripted(200, JsonTests.tzAnswer, mapOf("X-Time-Zone" to "America/New_York")), Scripted(403, """{"message":"Forbidden"}""")) { base, _ ->
                val delivered = Executors.newSingleThreadExecutor { r -> Thread(r, "callbacks") }
                val c = GeosvcClient(base, "k", ClientOptions().apply { callbackExecutor = delivered })
                val caller = Thread.currentThread()
                val done = CountDownLatch(1)
                val done2 = CountDownLatch(1)
                var okThread: String? = null
                var worker: Thread? = null
                var got: TimeZoneInfo? = null
                var err: GeosvcException? = null
                c.enqueue({ tok -> worker = Thread.currentThread(); c.timeZone(dover, tok) }, { v -> got = v; okThread = Thread.currentThread().name; done.countDown() }, { e -> err = e; done.countDown() })
                T.check(done.await(10, TimeUnit.SECONDS)) { "no callback" }
                c.enqueue({ tok -> c.usage(null, tok) }, { _ -> T.error("403 delivered as success"); done2.countDown() }, { e -> err = e; done2.countDown() })
                T.check(done2.await(10, TimeUnit.SECONDS)) { "no second callback" }
                T.eq(got?.name, "America/New_York", "async result")
                T.eq(okThread, "callbacks", "callback thread")
                T.check(worker != null && worker !== caller) { "ran on the caller's thread" }
                T.check(err is ForbiddenException) { "async error: $err" }
                delivered.shutdown()
            }
        }
    }
}
