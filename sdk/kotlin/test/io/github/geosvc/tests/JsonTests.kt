package io.github.geosvc.tests

import io.github.geosvc.Answer
import io.github.geosvc.GeosvcException
import io.github.geosvc.Json
import io.github.geosvc.JsonException
import io.github.geosvc.JsonObject
import io.github.geosvc.MalformedAnswerException
import io.github.geosvc.MatrixResult
import io.github.geosvc.TimeZoneInfo
import io.github.geosvc.Admin
import io.github.geosvc.Route
import io.github.geosvc.OsrmTable
import io.github.geosvc.OsrmNearest
import io.github.geosvc.OsrmMatch
import io.github.geosvc.OsrmTrip
import io.github.geosvc.LookupResult
import io.github.geosvc.TileJson
import io.github.geosvc.retryAfterMillis
import java.util.Random

/** The JSON reader and writer, and the models on malformed answers. */
object JsonTests {
    // Answers of the shape the server gives (api/openapi.yaml), the seeds of the mutation tests.
    val tzAnswer = """{"time_zone":{"category_code":911,"category_name":"time_zone","time_zone":"UTC-05:00","country_ISO3_codes":["USA"],""" +
        """"local_boundary_names":["Delaware"],"time_zone_abbreviations_names":[["EST","Eastern Standard Time"]],""" +
        """"dst_time_zone_abbreviations_names":[["EDT","Eastern Daylight Time"]]},"local_area":{"time_zone":"UTC-05:00",""" +
        """"time_zone_local_abbreviation":"EST","time_zone_local_name":"Eastern Standard Time","has_daylight_saving_time":true}}"""
    val matrixAnswer = """{"uuid":"6f1c2f4e-1111-4a6b-9c1d-2e3f4a5b6c7d","status":"Finished","routing":"fastest",""" +
        """"origin_addresses":["-75.5244,39.1582"],"destination_addresses":["-75.5466,39.7447","0,0"],""" +
        """"duration":[[4123,null]],"distance":[[78012,null]],"snapping":{"origins":[{"snapped":true}],"destinations":[{"snapped":true},{"snapped":false}]}}"""
    val adminAnswer = """{"type":"FeatureCollection","features":[{"type":"Feature","id":"r1","geometry":{"type":"Polygon","coordinates":[]},""" +
        """"geometry_name":"geom","properties":{"boundary_id":148838,"country_code":840,"country_name":"United States","category_code":"905",""" +
        """"category_name":"admin5","name":"Kent County","bbox":[-75.76,38.8,-75.3,39.4],"source":"osm"}}],"totalFeatures":1,""" +
        """"numberMatched":1,"numberReturned":1,"timeStamp":"2026-11-28T00:00:00Z","crs":{},"bbox":[38.8,-75.76,39.4,-75.3]}"""
    val routeAnswer = """{"routing":"fastest","profile":"car","duration":3000,"distance":80000,"from":{},"to":{},""" +
        """"steps":[{"maneuver":"depart","street":"","road_type":"Primary","location":[-75.5,39.1],"distance":10.5,"duration":2.25}],""" +
        """"geometry":{"type":"LineString","coordinates":[[-75.5,39.1],[-75.6,39.7]]}}"""

    /** v as a JsonObject (a test's REST answer). */
    fun obj(v: Any?): JsonObject = JsonObject.of(v)

    val osrmTableAnswer = """{"code":"Ok","durations":[[0,812.4],[805.1,null]],"sources":[{"name":"Kings Highway","location":[-75.5244,39.1582],""" +
        """"distance":3.2},{"name":"","location":[-75.5466,39.7447],"distance":0}],"destinations":[]}"""

    val osrmNearestAnswer = """{"code":"Ok","waypoints":[{"hint":"gU4BAFIVlv6TJMs_","distance":0.36,"name":"Kings Highway",""" +
        """"location":[-75.524404,39.1582],"nodes":[178578433,178609289]}]}"""
    val osrmMatchAnswer = """{"code":"Ok","matchings":[{"confidence":0.93,"geometry":"e~bqFnuxhM","legs":[{"steps":[],"summary":"","weight":301.2,""" +
        """"duration":301.2,"distance":3061.4}],"weight_name":"duration","weight":301.2,"duration":301.2,"distance":3061.4}],"tracepoints":[null,""" +
        """{"distance":4.1,"name":"North Market Street","location":[-75.56144,39.73433],"matchings_index":0,"waypoint_index":0,"alternatives_count":0}]}"""
    val osrmTripAnswer = """{"code":"Ok","trips":[{"legs":[{"steps":[],"summary":"","weight":3792.9,"duration":3792.9,"distance":78746.5}],""" +
        """"weight_name":"duration","weight":8533,"duration":8533,"distance":173010.2}],"waypoints":[{"hint":"gU4BAFIVlv6TJMs_","distance":0.36,""" +
        """"name":"Kings Highway","location":[-75.524404,39.1582],"trips_index":0,"waypoint_index":0}]}"""
    val lookupAnswer = """{"index":0,"status":200,"timezone":""" + tzAnswer + ""","admin":{"type":"FeatureCollection","features":[{"type":"Feature",""" +
        """"properties":{"name":"Kent County","category_name":"admin5"}}]},"geoboundaries":{"status":404,"message":"no boundary"},""" +
        """"zip4":{"type":"FeatureCollection","features":[],"bbox":null},"covid":{"hierarchy_data":{"p0":{"boundary_id":"US-10001","name":"Kent",""" +
        """"category_code":902,"category_name":"admin2","total_cases":1}}}}"""
    val tileJsonAnswer = """{"tilejson":"3.0.0","tiles":["http://h/tilesv1/{z}/{x}/{y}.mvt"],"bounds":[-180,-85.0511,180,85.0511],""" +
        """"extract_bounds":[-75.79,38.45,-74.96,40.03],"center":[-75.4,39.2,10],"minzoom":0,"maxzoom":14,""" +
        """"vector_layers":[{"id":"roads","minzoom":0,"maxzoom":14,"fields":{"class":"String: motorway..."}}]}"""

    private fun answer(body: String) = Answer("test", 200, body.toByteArray(Charsets.UTF_8), emptyMap())

    /** Each model's reading of a body, as the client does it. */
    val readers: List<Pair<String, (String) -> Any>> = listOf(
        "timezone" to { b: String -> TimeZoneInfo.of(answer(b).json(), "America/New_York") },
        "matrix" to { b: String -> MatrixResult.of(answer(b).json()) },
        "admin" to { b: String -> Admin.of(answer(b).json()) },
        "route" to { b: String -> Route.of(answer(b).json()) },
        "osrmtable" to { b: String -> OsrmTable.of(answer(b).json()) },
        "osrmnearest" to { b: String -> OsrmNearest.of(answer(b).json()) },
        "osrmmatch" to { b: String -> OsrmMatch.of(answer(b).json()) },
        "osrmtrip" to { b: String -> OsrmTrip.of(answer(b).json()) },
        "lookup" to { b: String -> LookupResult.of(answer(b).json()) },
        "tilejson" to { b: String -> TileJson.of(answer(b).json(), b) }
    )
    val seeds = mapOf("timezone" to tzAnswer, "matrix" to matrixAnswer, "admin" to adminAnswer, "route" to routeAnswer, "osrmtable" to osrmTableAnswer,
        "osrmnearest" to osrmNearestAnswer, "osrmmatch" to osrmMatchAnswer, "osrmtrip" to osrmTripAnswer, "lookup" to lookupAnswer, "tilejson" to tileJsonAnswer)

    fun register() {
        T.test("JsonParseValues") {
            val cases = listOf<Pair<String, Any?>>(
                "0" to 0L, "-12" to -12L, "1.5" to 1.5, "-0.25e2" to -25.0, "1E3" to 1000.0,
                "9223372036854775807" to Long.MAX_VALUE, "9223372036854775808" to 9.223372036854775808E18,
                "true" to true, "false" to false, "null" to null, " \"a\\\"b\\\\c\\/\\n\\u00e9\\ud83d\\ude00\" " to "a\"b\\c/\n\u00e9\ud83d\ude00",
                "[]" to emptyList<Any?>(), "{}" to emptyMap<String, Any?>(),
                "[1,[2,null],{\"k\":\"v\"}]" to listOf(1L, listOf(2L, null), mapOf("k" to "v")),
                "{\"a\":{\"b\":[true]},\"c\":-0.5}" to mapOf("a" to mapOf("b" to listOf(true)), "c" to -0.5)
            )
            for ((text, want) in cases) T.eq(Json.parse(text), want, "parse $text")
        }
        T.test("JsonWriteRoundTrip") {
            val v = mapOf("s" to "q\"\\\n\t\u0001é", "n" to listOf(1L, -2.5, 1e20, null, true), "o" to mapOf("x" to 3))
            val text = Json.write(v)
            T.eq(text, "{\"s\":\"q\\\"\\\\\\n\\t\\u0001é\",\"n\":[1,-2.5,1.0E20,null,true],\"o\":{\"x\":3}}", "write")
            T.eq(Json.parse(text), mapOf("s" to "q\"\\\n\t\u0001é", "n" to listOf(1L, -2.5, 1e20, null, true), "o" to mapOf("x" to 3L)), "round trip")
            T.throws<IllegalArgumentException>("NaN") { Json.write(Double.NaN) }
        }
        T.test("JsonRejects") {
            val bad = listOf("", " ", "{", "[", "{\"a\":1", "[1,2", "\"abc", "{\"a\" 1}", "{a:1}", "01", "1.", ".5", "-", "1e", "+1",
                "tru", "nul", "{\"a\":1,}", "[1,]", "[,1]", "\"\t\"", "\"\\x\"", "\"\\u12\"", "\"\\u12zz\"", "{} {}", "[1] x", "NaN",
                "{\"a\":1}}", "[".repeat(100_000), "{\"a\":".repeat(1000))
            for (b in bad) T.throws<JsonException>("parse ${b.take(20)}") { Json.parse(b) }
        }
        T.test("RetryAfter") {
            T.eq(retryAfterMillis("3"), 3000L, "seconds")
            T.eq(retryAfterMillis(" 0 "), 0L, "zero")
            T.eq(retryAfterMillis(null), null, "absent")
            T.eq(retryAfterMillis("-1"), null, "negative")
            T.eq(retryAfterMillis("soon"), null, "junk")
            T.eq(retryAfterMillis("Thu, 01 Jan 1970 00:00:00 GMT"), 0L, "a date past")
            val d = retryAfterMillis("Fri, 31 Dec 2100 23:59:59 GMT") ?: T.fail("a future date: null")
            T.check(d > 365L * 24 * 3600 * 1000) { "a future date: $d ms" }
        }
        T.test("ModelsReadSeeds") {
            val tz = readers[0].second(tzAnswer) as TimeZoneInfo
            T.eq(tz.utcOffset, "UTC-05:00", "offset")
            val m = readers[1].second(matrixAnswer) as MatrixResult
            T.eq(m.durations, listOf(listOf<Long?>(4123L, null)), "durations")
            val a = readers[2].second(adminAnswer) as Admin
            T.eq(a.area?.name, "Kent County", "admin name")
            T.eq(a.bounds?.minLon, -75.76, "admin bbox read latitude first")
            T.eq(a.area?.bounds?.minLon, -75.76, "area bbox read longitude first")
            val r = readers[3].second(routeAnswer) as Route
            T.eq(r.geometry.size, 2, "route line")
            T.eq(r.lang, null, "route without lang")
            T.eq((readers[3].second(routeAnswer.replace("\"routing\":", "\"lang\":\"es\",\"routing\":")) as Route).lang, "es", "route lang")
            val t = readers[4].second(osrmTableAnswer) as OsrmTable
            T.eq(t.durations, listOf(listOf<Double?>(0.0, 812.4), listOf<Double?>(805.1, null)), "OSRM durations")
            T.eq(t.sources[0].location, io.github.geosvc.Point(-75.5244, 39.1582), "OSRM source")
            T.eq(t.distances, null, "no distances asked")
            val n = readers[5].second(osrmNearestAnswer) as OsrmNearest
            T.eq(n.waypoints[0].nodes, listOf(178578433L, 178609289L), "nearest nodes")
            val om = readers[6].second(osrmMatchAnswer) as OsrmMatch
            T.eq(om.tracepoints.map { it?.name }, listOf(null, "North Market Street"), "tracepoints")
            T.eq(om.matchings[0].legCount, 1, "matching legs")
            val tr = readers[7].second(osrmTripAnswer) as OsrmTrip
            T.eq(tr.waypoints[0].tripsIndex to tr.waypoints[0].waypointIndex, 0 to 0, "trip waypoint")
            val lr = readers[8].second(lookupAnswer) as LookupResult
            T.eq(lr.timezone?.utcOffset, "UTC-05:00", "lookup timezone")
            T.eq(lr.admin?.map { it.string("name") }, listOf("Kent County"), "lookup admin")
            T.eq(lr.geoBoundaries, null, "an error layer is not a value")
            T.eq(lr.layerErrors["geoboundaries"]?.status, 404, "the error layer")
            T.eq(lr.covid?.get("p0")?.name, "Kent", "lookup covid")
            val tj = readers[9].second(tileJsonAnswer) as TileJson
            T.eq(tj.bounds.maxLat to tj.maxzoom, 85.0511 to 14, "tilejson")
        }
        T.test("ModelsWrongTypes") {
            // Each a valid JSON document of the wrong shape: a typed error naming the member.
            val cases = listOf(
                Triple(0, """{"time_zone":5,"local_area":{}}""", "$.time_zone"),
                Triple(0, """{"time_zone":{"time_zone":"UTC-05:00"},"local_area":{"time_zone":7}}""", "$.local_area.time_zone"),
                Triple(0, "[1,2]", "$"),
                Triple(0, "null", "$"),
                Triple(1, matrixAnswer.replace("[[4123,null]]", "[[\"4123\",null]]"), "$.duration[0][0]"),
                Triple(1, matrixAnswer.replace("[[4123,null]]", "[4123]"), "$.duration[0]"),
                Triple(1, matrixAnswer.replace("[[4123,null]]", "[[4123.5,null]]"), "$.duration[0][0]"),
                Triple(1, matrixAnswer.replace("\"uuid\":", "\"uuid_\":"), "$.uuid"),
                Triple(2, adminAnswer.replace("\"boundary_id\":148838", "\"boundary_id\":true"), "boundary_id"),
                Triple(2, adminAnswer.replace("[38.8,-75.76,39.4,-75.3]", "[38.8,-75.76]"), "$.bbox"),
                Triple(3, routeAnswer.replace("[-75.6,39.7]", "[-75.6]"), "coordinates[1]"),
                Triple(3, routeAnswer.replace("\"steps\":[{", "\"steps\":[7,{"), "$.steps[0]"),
                Triple(4, osrmTableAnswer.replace("812.4", "\"812.4\""), "$.durations[0][1]"),
                Triple(4, osrmTableAnswer.replace("[-75.5244,39.1582]", "[-75.5244]"), "$.sources[0].location"),
                Triple(5, osrmNearestAnswer.replace("[178578433,", "[\"178578433\","), "$.waypoints[0].nodes[0]"),
                Triple(6, osrmMatchAnswer.replace("[null,", "[7,"), "$.tracepoints[0]"),
                Triple(6, osrmMatchAnswer.replace("\"matchings_index\":0", "\"matchings_index\":0.5"), "$.tracepoints[1].matchings_index"),
                Triple(7, osrmTripAnswer.replace("\"trips_index\":0", "\"trips_index\":\"0\""), "$.waypoints[0].trips_index"),
                Triple(8, lookupAnswer.replace("\"index\":0", "\"index\":null"), "$.index"),
                Triple(8, lookupAnswer.replace("\"features\":[{", "\"features\":[1,{"), "$.admin.features[0]"),
                Triple(9, tileJsonAnswer.replace("[-180,-85.0511,180,85.0511]", "[-180,-85.0511,180]"), "$.bounds"),
                Triple(9, tileJsonAnswer.replace("\"fields\":{\"class\":\"String: motorway...\"}", "\"fields\":{\"class\":3}"), "fields.class")
            )
            for ((k, body, path) in cases) {
                val e = T.throws<MalformedAnswerException>("${readers[k].first} ${body.take(60)}") { readers[k].second(body) }
                T.check(e.message!!.contains(path)) { "${readers[k].first}: ${e.message} does not name $path" }
            }
        }
        T.test("ModelsTruncatedAnswers") {
            // Every prefix of every seed: a typed error, never another exception.
            for ((name, read) in readers) {
                val seed = seeds.getValue(name)
                for (n in 0 until seed.length) {
                    try {
                        read(seed.substring(0, n))
                        T.error("$name cut at $n: read without error")
                    } catch (e: MalformedAnswerException) {
                    } catch (e: Throwable) {
                        T.fail("$name cut at $n: ${e.javaClass.name}: ${e.message}")
                    }
                }
            }
        }
        T.test("ModelsMutatedAnswers") {
            // Fuzz-like: random byte edits of the seeds (fixed seed), read or a GeosvcException.
            val rnd = Random(27)
            val alphabet = "{}[]\",:0123456789.-eEtrufalsn \\x"
            var typed = 0
            for ((name, read) in readers) {
                val seed = seeds.getValue(name)
                repeat(3000) {
                    val b = StringBuilder(seed)
                    repeat(1 + rnd.nextInt(3)) {
                        val i = rnd.nextInt(b.length)
                        when (rnd.nextInt(3)) {
                            0 -> b.setCharAt(i, alphabet[rnd.nextInt(alphabet.length)])
                            1 -> b.deleteCharAt(i)
                            else -> b.insert(i, alphabet[rnd.nextInt(alphabet.length)])
                        }
                    }
                    try {
                        read(b.toString())
                    } catch (e: GeosvcException) {
                        typed++
                    } catch (e: Throwable) {
                        T.fail("$name mutated to ${b}: ${e.javaClass.name}: ${e.message}")
                    }
                }
            }
            T.check(typed > 1000) { "only $typed of ${3000 * readers.size} mutations were errors: the mutations do not bite" }
        }
        T.test("JsonObjectAccessors") {
            val o = JsonObject.of(Json.parse("""{"i":3,"d":2.5,"big":3000000000,"s":"x","n":null,"l":[1,"a"]}"""))
            T.eq(o.int("i"), 3, "int")
            T.eq(o.double("i"), 3.0, "int as double")
            T.eq(o.long("big"), 3000000000L, "long")
            T.throws<MalformedAnswerException>("int of 3e9") { o.int("big") }
            T.throws<MalformedAnswerException>("long of 2.5") { o.long("d") }
            T.eq(o.stringOrNull("n"), null, "null")
            T.eq(o.stringOrNull("missing"), null, "missing")
            T.throws<MalformedAnswerException>("string of null") { o.string("n") }
            T.throws<MalformedAnswerException>("strings of a mixed list") { o.strings("l") }
        }
    }
}
