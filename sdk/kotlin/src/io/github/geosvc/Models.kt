package io.github.geosvc

/**
 * A point: longitude and latitude in decimal degrees (WGS 84). The client
 * writes each interface's own convention on the wire (zip4v1's x is the
 * latitude; tdmv1 and routev1 write "lon,lat").
 */
data class Point(val lon: Double, val lat: Double) {
    /** "lon,lat", as tdmv1 and routev1 read points. */
    override fun toString() = "${plain(lon)},${plain(lat)}"

    internal fun check(what: String = "point") {
        if (lon.isNaN() || lat.isNaN() || lon < -180 || lon > 180 || lat < -90 || lat > 90)
            throw IllegalArgumentException("geosvc: $what $lon,$lat: want a longitude in [-180, 180] and a latitude in [-90, 90]")
    }
}

/** A bounding box read longitude first whatever the order on the wire. */
data class Bounds(val minLon: Double, val minLat: Double, val maxLon: Double, val maxLat: Double) {
    fun contains(p: Point) = p.lon in minLon..maxLon && p.lat in minLat..maxLat

    internal companion object {
        fun lonFirst(o: JsonObject, name: String): Bounds? = o.listOrNull(name)?.let {
            val b = o.doubles(name)
            if (b.size != 4) throw MalformedAnswerException("${o.path}.$name: want 4 numbers, got ${b.size}")
            Bounds(b[0], b[1], b[2], b[3])
        }
        fun latFirst(o: JsonObject, name: String): Bounds? = lonFirst(o, name)?.let { Bounds(it.minLat, it.minLon, it.maxLat, it.maxLon) }
    }
}

/** GET /v1/info: the server's version, interfaces and data bundle. */
class Info(val version: String, val interfaces: List<String>, val attribution: String, val raw: JsonObject) {
    /** The bundle's name ("delaware-latest"). */
    val dataName: String? get() = raw.objOrNull("data")?.stringOrNull("name")

    internal companion object {
        fun of(o: JsonObject) = Info(o.string("version"), o.strings("interfaces"), o.string("attribution"), o)
    }
}

/** A zip4v1 answer: the ZIP+4 areas, and the collection's bbox (latitude first on the wire). */
class Zip4(val areas: List<Zip4Area>, val bounds: Bounds?, val raw: JsonObject) {
    internal companion object {
        fun of(o: JsonObject) = Zip4(o.objects("features").map { f ->
            val p = f.obj("properties")
            Zip4Area(f.string("id"), p.string("zip"), p.string("zip9"), p.string("fips"), p.stringOrNull("street"), Bounds.lonFirst(p, "bbox"), f)
        }, Bounds.latFirst(o, "bbox"), o)
    }
}

/** One ZIP+4 area; [raw] holds its geometry (a MultiPolygon). */
class Zip4Area(val id: String, val zip: String, val zip9: String, val fips: String, val street: String?, val bounds: Bounds?, val raw: JsonObject)

/** A geocoder answer whose status is OK or ZERO_RESULTS (an empty [results]). */
class Geocoded(val status: String, val results: List<GeocodeResult>, val raw: JsonObject) {
    internal companion object {
        fun of(o: JsonObject) = Geocoded(o.string("status"), o.objects("results").map { r ->
            val g = r.obj("geometry")
            val loc = g.obj("location")
            GeocodeResult(r.string("formatted_address"), r.strings("types"), Point(loc.double("lng"), loc.double("lat")),
                g.string("location_type"), r.string("place_id"), r.boolOrNull("partial_match") ?: false,
                r.objects("address_components").map { AddressComponent(it.string("long_name"), it.string("short_name"), it.strings("types")) })
        }, o)
    }
}

data class GeocodeResult(
    val formattedAddress: String, val types: List<String>, val location: Point, val locationType: String,
    val placeId: String, val partialMatch: Boolean, val components: List<AddressComponent>
)

data class AddressComponent(val longName: String, val shortName: String, val types: List<String>)

/**
 * A timezonesv1 answer: [name] the IANA zone (X-Time-Zone header; in a
 * lookupsv1 batch, the answer's time_zone_id, given with a timestamp),
 * [utcOffset] the standard offset ("UTC-05:00"), and the local area's names.
 */
class TimeZoneInfo(
    val name: String?, val utcOffset: String, val abbreviation: String, val localName: String,
    val hasDaylightSavingTime: Boolean, val dstAbbreviation: String?, val raw: JsonObject
) {
    internal companion object {
        fun of(o: JsonObject, name: String?): TimeZoneInfo {
            val tz = o.obj("time_zone")
            val la = o.obj("local_area")
            tz.string("time_zone")
            return TimeZoneInfo(name ?: o.stringOrNull("time_zone_id"), la.string("time_zone"), la.string("time_zone_local_abbreviation"), la.string("time_zone_local_name"),
                la.bool("has_daylight_saving_time"), la.stringOrNull("dst_time_zone_local_abbreviation"), o)
        }
    }
}

/** The administrative levels of adminv1, Admin0 (country) to Admin8 (usually municipalities). */
enum class AdminLevel { Admin0, Admin1, Admin2, Admin3, Admin4, Admin5, Admin6, Admin7, Admin8;
    val wire: String get() = name.toLowerCase(Locale.ROOT)
}

/** An adminv1 answer: the area (null when the point is in none) and the polygon's bbox read longitude first. */
class Admin(val area: AdminArea?, val bounds: Bounds?, val raw: JsonObject) {
    internal companion object {
        fun of(o: JsonObject): Admin {
            val f = o.objects("features").firstOrNull()
            val area = f?.obj("properties")?.let { p ->
                AdminArea(p.long("boundary_id"), p.string("name"), p.long("country_code").toInt(), p.string("country_name"),
                    p.string("category_code"), p.string("category_name"), p.string("source"), Bounds.lonFirst(p, "bbox"), f)
            }
            return Admin(area, Bounds.latFirst(o, "bbox"), o)
        }
    }
}

/** An administrative area; [bounds] is the whole area's bbox; [raw] holds its polygon. */
class AdminArea(
    val boundaryId: Long, val name: String, val countryCode: Int, val countryName: String,
    val categoryCode: String, val categoryName: String, val source: String, val bounds: Bounds?, val raw: JsonObject
)

/** A non-administrative boundary of geoboundariesv1. */
data class GeoBoundary(
    val boundaryId: Long, val countryCode: Int, val countryName: String, val categoryCode: Int, val categoryName: String,
    val name: String?, val subCategoryCode: Int?, val subCategoryName: String?
) {
    internal companion object {
        fun of(o: JsonObject) = GeoBoundary(o.long("boundary_id"), o.int("country_code"), o.string("country_name"), o.int("category_code"),
            o.string("category_name"), o.stringOrNull("geo_boundary_name"), o.intOrNull("sub_category_code"), o.stringOrNull("sub_category_name"))
    }
}

/** A COVID-19 record of one administration (covidv1); absent values are null. */
data class CovidRecord(
    val boundaryId: String, val name: String, val categoryCode: Int, val categoryName: String,
    val countryName: String?, val dateReported: String?, val totalCases: Long?, val totalDeaths: Long?,
    val covidTrend: Double?, val riskScore: String?
) {
    internal companion object {
        fun of(o: JsonObject) = CovidRecord(o.string("boundary_id"), o.string("name"), o.int("category_code"), o.string("category_name"),
            o.stringOrNull("country_name"), o.stringOrNull("date_reported"), o.longOrNull("total_cases"), o.longOrNull("total_deaths"),
            o.doubleOrNull("covid_trend"), o.stringOrNull("covid_risk_score"))

        fun hierarchy(o: JsonObject): Map<String, CovidRecord> = o.map.keys.associateWith { of(o.obj(it)) }
    }
}

/** A country of covidv1/countries/list. */
data class CovidCountry(val iso3: String, val name: String, val dialCode: String)

/** A covidv1 map tile: its "z/x/y" id, indexes and the records of the administrations at it. */
class CovidTile(val id: String, val x: Int, val y: Int, val hierarchy: Map<String, CovidRecord>, val bounds: Bounds?, val raw: JsonObject) {
    internal companion object {
        fun of(o: JsonObject): CovidTile {
            val fs = o.objects("features")
            if (fs.size != 1) throw MalformedAnswerException("${o.path}.features: want one tile, got ${fs.size}")
            val f = fs[0]
            val p = f.obj("properties")
            return CovidTile(f.string("id"), p.int("x_index"), p.int("y_index"), CovidRecord.hierarchy(p.obj("hierarchy_data")),
                Bounds.lonFirst(f.obj("geometry"), "bbox"), o)
        }
    }
}

/**
 * A routev1 route: [distance] metres, [duration] seconds, the line's [geometry] (lon, lat pairs);
 * [lang] the language the steps' streets are named in (a BCP 47 tag, routev1's `lang`), null for their default names.
 */
class Route(val routing: String, val distance: Long, val duration: Long, val geometry: List<Point>, val steps: List<RouteStep>, val alternatives: List<JsonObject>,
            val lang: String?, val raw: JsonObject) {
    internal companion object {
        fun of(o: JsonObject) = Route(o.string("routing"), o.long("distance"), o.long("duration"), line(o.obj("geometry")),
            o.objects("steps").map { RouteStep(it.string("maneuver"), it.string("street"), it.string("road_type"), it.double("distance"), it.double("duration")) },
            o.listOrNull("alternatives")?.let { o.objects("alternatives") } ?: emptyList(), o.stringOrNull("lang"), o)

        fun line(g: JsonObject): List<Point> = g.list("coordinates").mapIndexed { k, v ->
            val c = v as? List<*>
            val lon = c?.getOrNull(0) as? Number
            val lat = c?.getOrNull(1) as? Number
            if (lon == null || lat == null) throw MalformedAnswerException("${g.path}.coordinates[$k]: want [lon, lat]")
            Point(lon.toDouble(), lat.toDouble())
        }
    }
}

/** A step: its maneuver, street, SOAP road type, and the metres and seconds driven after it. */
data class RouteStep(val maneuver: String, val street: String, val roadType: String, val distance: Double, val duration: Double)

/** A status of a matrix job that is not Finished, with its progress. */
data class JobState(val uuid: String, val status: JobStatus, val message: String?, val rowsDone: Long, val rowsTotal: Long)

/**
 * A Finished matrix job: [durations] (seconds) and [distances] (metres) as
 * asked, one row per origin and one column per destination, null where
 * there is no route (a matrix not asked for is null).
 */
class MatrixResult(
    val uuid: String, val routing: String, val originAddresses: List<String>, val destinationAddresses: List<String>,
    val durations: List<List<Long?>>?, val distances: List<List<Long?>>?, val raw: JsonObject
) {
    internal companion object {
        fun of(o: JsonObject) = MatrixResult(o.string("uuid"), o.string("routing"), o.strings("origin_addresses"), o.strings("destination_addresses"),
            if (o.has("duration")) o.matrix("duration") else null, if (o.has("distance")) o.matrix("distance") else null, o)
    }
}

/** A tilesv1 token: pass it as ?token= on tile requests, until [expiresAt] (RFC 3339). */
data class TileToken(val token: String, val expiresAt: String)

/** A free-trial key (keysv1/trial), shown only once. */
data class TrialKey(val keyId: String, val apiKey: String, val plan: String, val expires: String)

/** A purchase started (keysv1/checkout): send the customer to [checkoutUrl]; [apiKey] (a new key) is shown only now. */
data class CheckoutStarted(val sessionId: String, val checkoutUrl: String, val keyId: String, val apiKey: String?)

/**
 * routev1's options for [GeosvcClient.routeWith]; null or empty: the
 * server's default. Values are written as routev1 reads them
 * (api/openapi.yaml, docs/routing.md).
 */
class RouteOptions {
    /** "fastest" (default), "shortest", "efficient", "safest". */
    var routing: String? = null
    /** "ferry", "motorway", "toll", "unpaved". */
    var avoid: List<String> = emptyList()
    /** Up to this many alternatives (0 to 2), in [Route.alternatives]. */
    var alternatives = 0
    /** km/h by SOAP road type ("Motorway" to 80). */
    var speeds: Map<String, Double> = emptyMap()
    /** "car" (default), "truck", "bicycle", "foot". */
    var profile: String? = null
    /** A truck's dimensions as routev1's `vehicle` parameter (profile "truck" only). */
    var vehicle: String? = null
    /** Areas not to enter: a GeoJSON Polygon or MultiPolygon, as text. */
    var avoidPolygons: String? = null
    /** RFC 3339 times: leave at, or arrive by (one of them). */
    var departureTime: String? = null
    var arrivalTime: String? = null
    /** OSRM's radiuses, bearings, approaches ("from;to") and snapping ("default", "any"). */
    var radiuses: String? = null
    var bearings: String? = null
    var approaches: String? = null
    var snapping: String? = null
    /**
     * The language of the steps' street names: BCP 47 tags, comma-separated, preferred first ("de", "fr-CA,fr"),
     * as routev1's `lang` (OSM's name:xx where the data has it, else name; [Route.lang] says which was used).
     * Null: not sent, the names as tagged (this client sends no Accept-Language).
     */
    var lang: String? = null

    internal fun query(): List<Pair<String, Any?>> {
        val sp = speeds.keys.sorted().joinToString(",") { k -> k + ":" + speeds.getValue(k).let { if (it == Math.rint(it)) it.toLong().toString() else it.toString() } }
        val av = avoid.joinToString(",")
        // Not String.ifEmpty: kotlinc 1.3 binds it to CharSequence.isEmpty(), Java 15, absent from Android (android-api.txt).
        return listOf("routing" to routing, "speeds" to (if (sp.length == 0) null else sp), "avoid" to (if (av.length == 0) null else av),
            "avoid_polygons" to avoidPolygons, "profile" to profile, "vehicle" to vehicle,
            "alternatives" to (if (alternatives == 0) null else alternatives), "departure_time" to departureTime, "arrival_time" to arrivalTime,
            "radiuses" to radiuses, "bearings" to bearings, "approaches" to approaches, "snapping" to snapping, "lang" to lang)
    }
}

/** A usage statement (keysv1/usage); [raw] holds its days and metrics. Amounts in the currency's minor unit. */
class Statement(val keyId: String, val plan: String, val currency: String, val month: String, val through: String,
                val baseFee: Long, val usageAmount: Long, val total: Long,
                /** One line per day and metric. */
                val days: List<UsageLine>,
                /** The month's total per metric (day null). */
                val metrics: List<UsageLine>, val raw: JsonObject) {
    internal companion object {
        fun of(o: JsonObject) = Statement(o.string("key_id"), o.string("plan"), o.string("currency"), o.string("month"), o.string("through"),
            o.long("base_fee"), o.long("usage_amount"), o.long("total"), o.objects("days").map { UsageLine.of(it, it.string("day")) },
            o.objects("metrics").map { UsageLine.of(it, null) }, o)
    }
}

/** Units of a metric (an interface, or tdmv1.cells): counted, included in the plan, billable, and their amount. */
data class UsageLine(val day: String?, val metric: String, val count: Long, val included: Long, val billable: Long, val amount: Long) {
    internal companion object {
        fun of(o: JsonObject, day: String?) = UsageLine(day, o.string("metric"), o.long("count"), o.long("included"), o.long("billable"), o.long("amount"))
    }
}

/** An isochronev1 answer: one contour per feature (GeoJSON in [raw]). */
class Isochrones(val profile: String, val contours: List<IsochroneContour>, val raw: JsonObject) {
    internal companion object {
        fun of(o: JsonObject) = Isochrones(o.string("profile"), o.objects("features").map {
            val p = it.obj("properties")
            IsochroneContour(p.double("contour"), p.string("metric"), p.int("origin"), p.bool("reverse"), it.objOrNull("geometry"))
        }, o)
    }
}

/** One contour: [value] minutes (metric "time") or kilometres ("distance") around origin [origin]. */
class IsochroneContour(val value: Double, val metric: String, val origin: Int, val reverse: Boolean, val geometry: JsonObject?)

/** A matchv1 answer: the matched stretches (distance metres, duration seconds, confidence 0..1). */
class MatchResult(val matchings: List<Matching>, val raw: JsonObject) {
    internal companion object {
        fun of(o: JsonObject) = MatchResult(o.objects("matchings").map {
            Matching(it.double("confidence"), it.double("distance"), it.double("duration"), Route.line(it.obj("geometry")))
        }, o)
    }
}

data class Matching(val confidence: Double, val distance: Double, val duration: Double, val geometry: List<Point>)

private typealias Locale = java.util.Locale
