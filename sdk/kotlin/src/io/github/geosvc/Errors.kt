package io.github.geosvc

/**
 * Every error of the SDK. Kotlin has no checked exceptions: these are
 * unchecked, catch [GeosvcException] (or a subclass) around a call.
 */
open class GeosvcException(message: String, cause: Throwable? = null) : RuntimeException(message, cause)

/** A field of an invalid tdmv1 or keysv1 request, as the server names it. */
data class FieldError(val field: String, val reason: String)

/** The quota a 429 names: which metric of which plan, its limit and when it resets. */
data class Quota(
    val plan: String, val metric: String, val period: String,
    val limit: Long, val used: Long, val requested: Long,
    /** RFC 3339 time the period ends. */
    val resets: String
)

/**
 * An answer other than success: the HTTP [status] and the server's
 * [serverMessage] (every error body of geosvc is JSON with a message).
 * A 400 is a validation error: [serverMessage] says what is wrong and
 * [fields] which fields (tdmv1, keysv1). A 429 or 503 that was not
 * retried (retries exhausted, or a Retry-After beyond the longest wait,
 * such as a daily quota) carries [retryAfterMillis] and, for a plan's
 * quota, [quota].
 */
open class ApiException(
    /** The operation, such as "xy2tzdata". */
    val op: String,
    /** The HTTP status (200 for a geocoder status other than OK and ZERO_RESULTS). */
    val status: Int,
    /** The server's message. */
    val serverMessage: String,
    /** The geocoder's status (INVALID_REQUEST...); null elsewhere. */
    val geocoderStatus: String? = null,
    val fields: List<FieldError> = emptyList(),
    val quota: Quota? = null,
    /** The answer's Retry-After in milliseconds; null when it had none. */
    val retryAfterMillis: Long? = null,
    /** The X-Request-Id the server logged the request under. */
    val requestId: String? = null
) : GeosvcException(
    if (geocoderStatus != null) "geosvc: $op: $geocoderStatus: $serverMessage" else "geosvc: $op: $status $serverMessage"
) {
    /** Whether the request was refused as invalid (400). */
    val isValidation: Boolean get() = status == 400
    /** Whether this is a 429: rate limit or quota. */
    val isTooManyRequests: Boolean get() = status == 429
}

/**
 * A 403: a missing, malformed, unknown, revoked or expired key, or a key
 * whose plan does not include the interface. The server says no more
 * than "Forbidden".
 */
class ForbiddenException(op: String, serverMessage: String, requestId: String?) :
    ApiException(op, 403, serverMessage, requestId = requestId)

/** An answer of status 200 whose body is not what the interface answers (bad JSON, wrong types). */
class MalformedAnswerException(message: String, cause: Throwable? = null) : GeosvcException("geosvc: malformed answer: $message", cause)

/** No answer: the connection failed or timed out. */
class NetworkException(op: String, cause: Throwable) : GeosvcException("geosvc: $op: ${cause.javaClass.simpleName}: ${cause.message}", cause)

/** The call was cancelled (its [CancellationToken], or its thread interrupted). */
class CancelledException(op: String) : GeosvcException("geosvc: $op: cancelled")

/**
 * A matrix job that ended without a result: [JobStatus.Failed] (with the
 * server's message), [JobStatus.Cancelled], or [JobStatus.Expired] (410:
 * the result was kept tdm.retention, 24 hours by default; [cause] is its
 * [ApiException]).
 */
class JobException(
    val uuid: String, val jobStatus: JobStatus, val serverMessage: String?, cause: ApiException? = null,
    /** The job's last status and progress (null when Expired). */
    val state: JobState? = null
) :
    GeosvcException("geosvc: matrix job $uuid $jobStatus" + (if (serverMessage.isNullOrEmpty()) "" else ": $serverMessage"), cause)

/** The statuses of a matrix job; Expired for a job whose result is gone (410). */
enum class JobStatus { Queued, Processing, Finished, Failed, Cancelled, Expired }

/**
 * OSRM's codes of an error answer of the OSRM-compatible API
 * (api/openapi.yaml's OSRMError); [Unknown] for a code this SDK does not know.
 */
enum class OsrmErrorCode {
    InvalidUrl, InvalidService, InvalidVersion, InvalidQuery, InvalidValue, InvalidOptions, NotImplemented,
    TooBig, NoSegment, NoRoute, NoTrips, NoMatch, Unknown;

    companion object {
        /** The code of OSRM's name, or [Unknown]. */
        @JvmStatic
        fun of(name: String): OsrmErrorCode = values().firstOrNull { it.name == name && it != Unknown } ?: Unknown
    }
}

/**
 * An error answer of the OSRM-compatible API: HTTP 400 with OSRM's
 * `{"code", "message"}` (or a 200 whose code is not "Ok"). [code] is
 * typed, [osrmCode] as sent: the request is malformed (InvalidUrl ...
 * NotImplemented), too big (TooBig), or has no answer (NoSegment: a
 * coordinate with no road within its radius; NoRoute; NoTrips; NoMatch).
 */
class OsrmException(op: String, status: Int, val osrmCode: String, serverMessage: String, requestId: String?) :
    ApiException(op, status, serverMessage, requestId = requestId) {
    val code: OsrmErrorCode = OsrmErrorCode.of(osrmCode)
    override val message: String get() = "geosvc: $op: OSRM $osrmCode: $serverMessage"
}
