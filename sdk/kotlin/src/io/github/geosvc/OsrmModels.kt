package io.github.geosvc

// The answers of geosvc's OSRM-compatible API (docs/osrm.md), typed. Each
// has OSRM's code ("Ok": an answer of another code is an OsrmException)
// and keeps the whole answer in raw (legs, steps, annotations and
// geometries as OSRM writes them).

/**
 * A waypoint of an OSRM answer: the coordinate snapped to [location],
 * [distance] metres away, on road [name]. [hint] is OSRM's opaque hint
 * (null with generate_hints=false); [nodes] the OSM node ids of the road's
 * stretch (nearest answers only, else empty); [tripsIndex] and
 * [waypointIndex] the trip and the place in it (trip answers only, else null).
 */
data class OsrmWaypoint @JvmOverloads constructor(
    val name: String, val location: Point, val distance: Double,
    val hint: String? = null, val nodes: List<Long> = emptyList(), val tripsIndex: Int? = null, val waypointIndex: Int? = null
) {
    internal companion object {
        fun of(o: JsonObject) = OsrmWaypoint(o.string("name"), location(o, "location"), o.double("distance"), o.stringOrNull("hint"),
            if (o.has("nodes")) o.list("nodes").mapIndexed { k, v ->
                JsonObject.asLong(v) ?: throw MalformedAnswerException("${o.path}.nodes[$k]: want an integer, got ${JsonObject.describe(v, true)}")
            } else emptyList(), o.intOrNull("trips_index"), o.intOrNull("waypoint_index"))

        fun list(o: JsonObject, name: String): List<OsrmWaypoint> = if (!o.has(name)) emptyList() else o.objects(name).map { of(it) }

        fun location(o: JsonObject, name: String): Point {
            val l = o.doubles(name)
            if (l.size != 2) throw MalformedAnswerException("${o.path}.$name: want [lon, lat]")
            return Point(l[0], l[1])
        }
    }
}

/** The code of an OSRM answer: "Ok", or an [OsrmException]. */
internal fun osrmOk(o: JsonObject, op: String, status: Int): JsonObject {
    val code = o.string("code")
    if (code != "Ok") throw OsrmException(op, status, code, o.stringOrNull("message") ?: "", null)
    return o
}

/** An OSRM route service answer (osrm/route): the routes (metres, seconds; legs and geometry in [OsrmRoute.raw]) and waypoints. */
class OsrmRoutes(val code: String, val routes: List<OsrmRoute>, val waypoints: List<OsrmWaypoint>, val raw: JsonObject) {
    internal companion object {
        fun of(o: JsonObject) = OsrmRoutes(o.string("code"), o.objects("routes").map { OsrmRoute.of(it) }, OsrmWaypoint.list(o, "waypoints"), o)
    }
}

/** One OSRM route (or trip): metres, seconds, its weight and how many legs; legs and geometry in [raw]. */
data class OsrmRoute(val distance: Double, val duration: Double, val weight: Double, val weightName: String, val legCount: Int, val raw: JsonObject) {
    internal companion object {
        fun of(o: JsonObject) = OsrmRoute(o.double("distance"), o.double("duration"), o.double("weight"), o.string("weight_name"), o.objects("legs").size, o)
    }
}

/** An OSRM table answer: seconds and metres (null: no route), and the snapped sources and destinations. */
class OsrmTable(val code: String, val durations: List<List<Double?>>?, val distances: List<List<Double?>>?, val sources: List<OsrmWaypoint>,
                val destinations: List<OsrmWaypoint>, val raw: JsonObject) {
    internal companion object {
        fun of(o: JsonObject) = OsrmTable(o.string("code"), table(o, "durations"), table(o, "distances"), OsrmWaypoint.list(o, "sources"),
            OsrmWaypoint.list(o, "destinations"), o)

        private fun table(o: JsonObject, name: String): List<List<Double?>>? = if (!o.has(name)) null else o.list(name).mapIndexed { r, row ->
            val l = row as? List<*> ?: throw MalformedAnswerException("${o.path}.$name[$r]: want an array")
            l.mapIndexed { c, v -> if (v == null) null else (v as? Number)?.toDouble() ?: throw MalformedAnswerException("${o.path}.$name[$r][$c]: want a number or null") }
        }
    }
}

/** An OSRM nearest answer: the nearest roads' waypoints, nearest first (each with [OsrmWaypoint.nodes]). */
class OsrmNearest(val code: String, val waypoints: List<OsrmWaypoint>, val raw: JsonObject) {
    internal companion object {
        fun of(o: JsonObject) = OsrmNearest(o.string("code"), OsrmWaypoint.list(o, "waypoints"), o)
    }
}

/**
 * An OSRM match answer: the [matchings] (routes with a confidence) and one
 * tracepoint per coordinate, null where the coordinate was not matched.
 */
class OsrmMatch(val code: String, val matchings: List<OsrmMatching>, val tracepoints: List<OsrmTracepoint?>, val raw: JsonObject) {
    internal companion object {
        fun of(o: JsonObject) = OsrmMatch(o.string("code"), o.objects("matchings").map {
            OsrmMatching(it.double("confidence"), it.double("distance"), it.double("duration"), it.double("weight"), it.string("weight_name"),
                it.objects("legs").size, it)
        }, if (!o.has("tracepoints")) emptyList() else o.list("tracepoints").mapIndexed { k, v ->
            if (v == null) null else {
                @Suppress("UNCHECKED_CAST")
                val t = JsonObject(v as? Map<String, Any?> ?: throw MalformedAnswerException("${o.path}.tracepoints[$k]: want an object or null, got ${JsonObject.describe(v, true)}"),
                    "${o.path}.tracepoints[$k]")
                OsrmTracepoint(t.string("name"), OsrmWaypoint.location(t, "location"), t.double("distance"), t.int("matchings_index"),
                    t.int("waypoint_index"), t.int("alternatives_count"))
            }
        }, o)
    }
}

/** A matched stretch of a trace: [confidence] 0..1, metres, seconds, weight; legs and geometry in [raw]. */
data class OsrmMatching(val confidence: Double, val distance: Double, val duration: Double, val weight: Double, val weightName: String,
                        val legCount: Int, val raw: JsonObject)

/** A coordinate of a trace snapped to [location] on road [name], in matching [matchingsIndex] as its waypoint [waypointIndex]. */
data class OsrmTracepoint(val name: String, val location: Point, val distance: Double, val matchingsIndex: Int, val waypointIndex: Int,
                          val alternativesCount: Int)

/** An OSRM trip answer: the trips (routes visiting every coordinate) and the waypoints with their place in them. */
class OsrmTrip(val code: String, val trips: List<OsrmRoute>, val waypoints: List<OsrmWaypoint>, val raw: JsonObject) {
    internal companion object {
        fun of(o: JsonObject) = OsrmTrip(o.string("code"), o.objects("trips").map { OsrmRoute.of(it) }, OsrmWaypoint.list(o, "waypoints"), o)
    }
}
