package io.github.geosvc

import java.io.ByteArrayOutputStream
import java.io.IOException
import java.io.InputStream
import java.net.HttpURLConnection
import java.net.URL
import java.net.URLEncoder
import java.text.SimpleDateFormat
import java.util.Locale
import java.util.TimeZone
import java.util.concurrent.Executor
import java.util.concurrent.ExecutorService
import java.util.concurrent.Executors
import java.util.concurrent.ThreadFactory
import java.util.concurrent.atomic.AtomicInteger
import java.util.zip.GZIPInputStream
import java.util.zip.ZipException

/**
 * The choices of a [GeosvcClient]; the defaults are the Go and TypeScript
 * SDKs'.
 */
class ClientOptions {
    /** How often a 429 or 503 answer is retried (0 turns retrying off). */
    var maxRetries = 4
    /** The first backoff when an answer has no Retry-After, doubled at each retry, with jitter. */
    var backoffMillis = 500L
    /** The longest wait before a retry: a longer Retry-After (a daily quota) is returned at once. */
    var maxRetryWaitMillis = 30_000L
    var connectTimeoutMillis = 15_000
    /** Must exceed a matrix fetch's long poll (at most 30 s). */
    var readTimeoutMillis = 60_000
    var userAgent = "geosvc-kotlin"
    /** Runs the async calls ([GeosvcClient.enqueue]); default a shared pool of daemon threads. */
    var executor: Executor? = null
    /**
     * Runs the callbacks of async calls; default: the worker thread. On
     * Android pass the main thread's (`context.mainExecutor`, API 28, or
     * `Executor { handler.post(it) }`) to touch views.
     */
    var callbackExecutor: Executor? = null
    /** Called with the operation and the status of every answer, retried ones included (logging, tests). */
    var onAnswer: ((op: String, status: Int) -> Unit)? = null
}

/**
 * Cancels the calls given it: a blocking call in progress stops at once
 * (its connection is closed, its backoff wait ends) with a
 * [CancelledException]. One token can serve several calls; a cancelled
 * token stays cancelled.
 */
class CancellationToken {
    @Volatile
    var isCancelled = false
        private set
    private val lock = Object()
    private val connections = HashSet<HttpURLConnection>()
    private val listeners = ArrayList<() -> Unit>()

    fun cancel() {
        val conns: List<HttpURLConnection>
        val ls: List<() -> Unit>
        synchronized(lock) {
            if (isCancelled) return
            isCancelled = true
            conns = connections.toList()
            ls = listeners.toList()
            lock.notifyAll()
        }
        for (c in conns) try { c.disconnect() } catch (_: Exception) { }
        for (l in ls) try { l() } catch (_: Exception) { }
    }

    /** Calls l when the token is cancelled (at once if it is). */
    fun onCancel(l: () -> Unit) {
        synchronized(lock) { if (!isCancelled) { listeners.add(l); return } }
        l()
    }

    internal fun register(c: HttpURLConnection): Boolean = synchronized(lock) { if (isCancelled) false else connections.add(c) }
    internal fun unregister(c: HttpURLConnection) { synchronized(lock) { connections.remove(c) } }

    /** Sleeps ms unless cancelled first; returns whether it slept the whole time. */
    internal fun sleep(ms: Long): Boolean {
        val end = System.nanoTime() + ms * 1_000_000
        synchronized(lock) {
            while (!isCancelled) {
                val left = (end - System.nanoTime()) / 1_000_000
                if (left <= 0) return true
                lock.wait(left)
            }
        }
        return false
    }
}

/** The callback of an async call; runs on the client's callbackExecutor. */
interface Callback<T> {
    fun onSuccess(value: T)
    fun onFailure(error: GeosvcException)
}

/**
 * An HTTP answer; [streamed] is what a streaming call's reader made of a
 * success's body (which is then not in [body]).
 */
internal class Answer(val op: String, val status: Int, val body: ByteArray, private val headers: Map<String?, List<String>>,
                      val streamed: Any? = null) {
    fun header(name: String): String? = headers.entries.firstOrNull { it.key?.equals(name, ignoreCase = true) == true }?.value?.firstOrNull()
    val text: String get() = String(body, Charsets.UTF_8)

    /** The body as a JSON object, or a [MalformedAnswerException]. */
    fun json(): JsonObject {
        val v = try {
            Json.parse(text)
        } catch (e: JsonException) {
            throw MalformedAnswerException("$op: ${e.message}", e)
        } catch (e: NumberFormatException) {
            throw MalformedAnswerException("$op: ${e.message}", e)
        }
        return JsonObject.of(v)
    }

    /** The error of a non-success answer. */
    fun error(): ApiException {
        val retry = retryAfterMillis(header("Retry-After"))
        val rid = header("X-Request-Id")
        var msg = text.trim().take(200)
        var fields = emptyList<FieldError>()
        var quota: Quota? = null
        try {
            val o = JsonObject.of(Json.parse(text))
            msg = o.stringOrNull("message") ?: msg
            fields = o.listOrNull("errors")?.let { o.objects("errors").map { f -> FieldError(f.string("field"), f.string("reason")) } } ?: emptyList()
            quota = o.objOrNull("quota")?.let { q ->
                Quota(q.string("plan"), q.string("metric"), q.string("period"), q.long("limit"), q.long("used"), q.long("requested"), q.string("resets"))
            }
        } catch (_: Exception) {
            // Not geosvc's JSON (a proxy's page): the text is the message.
        }
        if (status == 403) return ForbiddenException(op, msg, rid)
        return ApiException(op, status, msg, fields = fields, quota = quota, retryAfterMillis = retry, requestId = rid)
    }
}

/** d in plain decimal ("0.00001", not Java's "1.0E-5"; "39", not "39.0"), as every interface reads numbers. */
internal fun plain(d: Double): String = when {
    d.isNaN() || d.isInfinite() -> d.toString()
    d == Math.rint(d) && Math.abs(d) < 1e15 -> d.toLong().toString()
    else -> java.math.BigDecimal.valueOf(d).stripTrailingZeros().toPlainString()
}

private val httpDate = ThreadLocal<SimpleDateFormat>()

/** Reads a Retry-After header in seconds or as an HTTP date; null if absent or unreadable. */
internal fun retryAfterMillis(v: String?): Long? {
    val s = v?.trim() ?: return null
    if (s.length == 0) return null
    s.toLongOrNull()?.let { return if (it < 0) null else Math.min(it, 1L shl 31) * 1000 }
    val f = httpDate.get() ?: SimpleDateFormat("EEE, dd MMM yyyy HH:mm:ss zzz", Locale.US).also {
        it.timeZone = TimeZone.getTimeZone("GMT"); httpDate.set(it)
    }
    return try {
        Math.max(0L, f.parse(s).time - System.currentTimeMillis())
    } catch (_: Exception) {
        null
    }
}

/** Sends requests with the key, retrying 429 and 503 with backoff, stopping when cancelled. */
internal class Transport(baseUrl: String, private val key: String?, val options: ClientOptions) {
    private val base = baseUrl.trimEnd('/')

    fun get(op: String, path: String, query: List<Pair<String, Any?>>, token: CancellationToken?, accept: String = JSON) =
        send(op, "GET", path, query, null, token, accept)

    fun post(op: String, path: String, body: Any?, token: CancellationToken?) =
        send(op, "POST", path, emptyList(), Json.write(body).toByteArray(Charsets.UTF_8), token)

    /**
     * Sends a request, retrying 429 and 503 (unless retry is false). With
     * read, a success's body (inflated when gzip) and its Content-Type are
     * given to read while the connection is open, and its result is the
     * answer's streamed.
     */
    fun send(op: String, method: String, path: String, query: List<Pair<String, Any?>>, body: ByteArray?, token: CancellationToken?,
             accept: String = JSON, retry: Boolean = true, read: ((InputStream, String?) -> Any?)? = null): Answer {
        val q = query.filter { it.second != null }.joinToString("&") { enc(it.first) + "=" + enc(param(it.second!!)) }
        val url = URL(base + path + if (q.length == 0) "" else "?$q")
        var attempt = 0
        while (true) {
            if (token?.isCancelled == true || Thread.currentThread().isInterrupted) throw CancelledException(op)
            val a = once(op, method, url, body, token, accept, read)
            options.onAnswer?.invoke(op, a.status)
            if ((a.status != 429 && a.status != 503) || !retry || attempt >= options.maxRetries) return a
            var wait = retryAfterMillis(a.header("Retry-After"))
            if (wait == null) {
                wait = options.backoffMillis shl attempt
                wait += (Math.random() * (wait / 4 + 1)).toLong()
            }
            if (wait > options.maxRetryWaitMillis) return a
            val slept = if (token != null) token.sleep(wait) else try { Thread.sleep(wait); true } catch (_: InterruptedException) {
                Thread.currentThread().interrupt(); false
            }
            if (!slept) throw CancelledException(op)
            attempt++
        }
    }

    private fun once(op: String, method: String, url: URL, body: ByteArray?, token: CancellationToken?, accept: String,
                     read: ((InputStream, String?) -> Any?)?): Answer {
        val c = url.openConnection() as HttpURLConnection
        if (token != null && !token.register(c)) throw CancelledException(op)
        try {
            c.requestMethod = method
            c.connectTimeout = options.connectTimeoutMillis
            c.readTimeout = options.readTimeoutMillis
            c.instanceFollowRedirects = true
            c.useCaches = false
            if (!key.isNullOrEmpty()) c.setRequestProperty("x-api-key", key)
            c.setRequestProperty("User-Agent", options.userAgent)
            c.setRequestProperty("Accept", accept)
            // Asked for explicitly and inflated here: a plain JVM does not
            // inflate, and Android's HttpURLConnection stops inflating
            // (transparently) when the caller sets Accept-Encoding.
            c.setRequestProperty("Accept-Encoding", "gzip")
            if (body != null) {
                c.doOutput = true
                c.setRequestProperty("Content-Type", "application/json")
                c.setFixedLengthStreamingMode(body.size)
                c.outputStream.use { it.write(body) }
            }
            val status = c.responseCode
            val gz = "gzip".equals(c.contentEncoding, ignoreCase = true)
            val stream: InputStream? = if (status >= 400) c.errorStream else c.inputStream
            if (read != null && status in 200..299) {
                val v = (stream ?: java.io.ByteArrayInputStream(ByteArray(0))).use { s -> read(if (gz) GZIPInputStream(s, 16 * 1024) else s, c.contentType) }
                return Answer(op, status, ByteArray(0), c.headerFields, v)
            }
            var bytes = stream?.use { readAll(it) } ?: ByteArray(0)
            if (gz && bytes.isNotEmpty()) bytes = inflate(op, bytes)
            return Answer(op, status, bytes, c.headerFields)
        } catch (e: ZipException) {
            throw MalformedAnswerException("$op: a gzip body that does not inflate: ${e.message}", e)
        } catch (e: IOException) {
            if (token?.isCancelled == true) throw CancelledException(op)
            throw NetworkException(op, e)
        } catch (e: RuntimeException) {
            // A connection disconnected by a cancel on another thread can
            // fail with an unchecked exception instead of an IOException
            // (the JDK's client: a NullPointerException on its closed
            // stream, seen in CI): a cancel all the same.
            if (token?.isCancelled == true) throw CancelledException(op)
            throw e
        } finally {
            token?.unregister(c)
            c.disconnect()
        }
    }

    /** A whole gzip body inflated; one that is not gzip or is cut short is a [MalformedAnswerException]. */
    private fun inflate(op: String, gz: ByteArray): ByteArray = try {
        GZIPInputStream(java.io.ByteArrayInputStream(gz)).use { readAll(it) }
    } catch (e: IOException) {
        throw MalformedAnswerException("$op: a gzip body that does not inflate: ${e.javaClass.simpleName} ${e.message}", e)
    }

    internal fun readAll(s: InputStream): ByteArray {
        val out = ByteArrayOutputStream()
        val buf = ByteArray(16 * 1024)
        while (true) {
            val n = s.read(buf)
            if (n < 0) return out.toByteArray()
            out.write(buf, 0, n)
        }
    }

    private fun enc(s: String) = URLEncoder.encode(s, "UTF-8")

    private fun param(v: Any): String = when (v) {
        is Double -> plain(v)
        else -> v.toString()
    }

    companion object {
        /** The Accept of the JSON interfaces. */
        const val JSON = "application/json"
        private val count = AtomicInteger()
        /** The shared pool of the async calls of clients without an executor of their own. */
        val pool: ExecutorService by lazy {
            Executors.newCachedThreadPool(ThreadFactory { r ->
                Thread(r, "geosvc-" + count.incrementAndGet()).also { it.isDaemon = true }
            })
        }
    }
}
