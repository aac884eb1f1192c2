package io.github.geosvc

/**
 * Names the REST operations (api/openapi.yaml's operationIds) a method of
 * [GeosvcClient] calls. The SDK's tests read it to check that every
 * operation of the document has a method (docs/sdks.md).
 */
@Target(AnnotationTarget.FUNCTION)
@Retention(AnnotationRetention.RUNTIME)
@MustBeDocumented
annotation class Operation(vararg val ids: String)

/**
 * The transport of a [GeosvcClient] and the reading of its answers. The
 * client's methods are declared in layers, one file each ([OsrmCalls],
 * [TileCalls], [BatchCalls], [GeosvcClient]): call them on a
 * [GeosvcClient].
 */
abstract class ClientCore internal constructor(baseUrl: String, apiKey: String?, val options: ClientOptions) {
    internal val t = Transport(baseUrl, apiKey, options)

    /** The JSON object of a success of status want, else the answer's error. */
    internal fun ok(a: Answer, want: Int = 200): JsonObject {
        if (a.status != want) throw a.error()
        return a.json()
    }

    /** The body of a success (an image, a tile), else the answer's error. */
    internal fun bytes(a: Answer): ByteArray {
        if (a.status != 200) throw a.error()
        return a.body
    }
}
