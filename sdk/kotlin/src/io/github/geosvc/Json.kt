package io.github.geosvc

/**
 * A small JSON reader and writer (RFC 8259), so that the SDK needs nothing
 * beyond the JDK or Android: Android bundles org.json, a plain JVM does not.
 *
 * Values are read as Kotlin values: an object is a [Map] (insertion
 * ordered), an array a [List], a string a [String], a number a [Long] when
 * it is an integer that fits, else a [Double], true/false a [Boolean] and
 * null Kotlin's null.
 */
object Json {
    /** The nesting depth past which [parse] refuses a document. */
    const val MAX_DEPTH = 512

    /** Reads one JSON document; anything else (truncated, trailing text) is a [JsonException]. */
    @JvmStatic
    fun parse(text: String): Any? {
        val p = Parser(text)
        p.ws()
        val v = p.value(0)
        p.ws()
        if (p.i != text.length) throw p.fail("trailing text")
        return v
    }

    /** Writes v (Map, List/Array, String, Number, Boolean, null) as compact JSON. */
    @JvmStatic
    fun write(v: Any?): String = StringBuilder().also { write(it, v) }.toString()

    private fun write(sb: StringBuilder, v: Any?) {
        when (v) {
            null -> sb.append("null")
            is String -> quote(sb, v)
            is Boolean -> sb.append(v)
            is Double, is Float -> {
                val d = (v as Number).toDouble()
                require(!d.isNaN() && !d.isInfinite()) { "JSON has no NaN or infinity" }
                if (d == Math.rint(d) && Math.abs(d) < 1e15) sb.append(d.toLong()) else sb.append(d)
            }
            is Number -> sb.append(v.toLong())
            is Map<*, *> -> {
                sb.append('{')
                var first = true
                for ((k, x) in v) {
                    if (!first) sb.append(',')
                    first = false
                    quote(sb, k.toString())
                    sb.append(':')
                    write(sb, x)
                }
                sb.append('}')
            }
            is Iterable<*> -> {
                sb.append('[')
                var first = true
                for (x in v) {
                    if (!first) sb.append(',')
                    first = false
                    write(sb, x)
                }
                sb.append(']')
            }
            is Array<*> -> write(sb, v.asList())
            else -> throw IllegalArgumentException("cannot write ${v.javaClass.name} as JSON")
        }
    }

    private fun quote(sb: StringBuilder, s: String) {
        sb.append('"')
        for (c in s) {
            when (c) {
                '"' -> sb.append("\\\"")
                '\\' -> sb.append("\\\\")
                '\n' -> sb.append("\\n")
                '\r' -> sb.append("\\r")
                '\t' -> sb.append("\\t")
                else -> if (c < ' ' || c == '\u2028' || c == '\u2029') sb.append(String.format("\\u%04x", c.toInt())) else sb.append(c)
            }
        }
        sb.append('"')
    }

    private class Parser(val s: String) {
        var i = 0

        fun fail(what: String) = JsonException("$what at offset $i")

        fun ws() {
            while (i < s.length && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r')) i++
        }

        fun value(depth: Int): Any? {
            if (depth > MAX_DEPTH) throw fail("nested deeper than $MAX_DEPTH")
            if (i >= s.length) throw fail("unexpected end")
            return when (s[i]) {
                '{' -> obj(depth)
                '[' -> arr(depth)
                '"' -> str()
                't' -> lit("true", true)
                'f' -> lit("false", false)
                'n' -> lit("null", null)
                else -> num()
            }
        }

        fun lit(word: String, v: Any?): Any? {
            if (!s.startsWith(word, i)) throw fail("invalid literal")
            i += word.length
            return v
        }

        fun obj(depth: Int): Map<String, Any?> {
            val m = LinkedHashMap<String, Any?>()
            i++
            ws()
            if (i < s.length && s[i] == '}') { i++; return m }
            while (true) {
                ws()
                if (i >= s.length || s[i] != '"') throw fail("expected a member name")
                val k = str()
                ws()
                if (i >= s.length || s[i] != ':') throw fail("expected ':'")
                i++
                ws()
                m[k] = value(depth + 1)
                ws()
                if (i >= s.length) throw fail("unexpected end in an object")
                when (s[i++]) {
                    ',' -> { }
                    '}' -> return m
                    else -> { i--; throw fail("expected ',' or '}'") }
                }
            }
        }

        fun arr(depth: Int): List<Any?> {
            val l = ArrayList<Any?>()
            i++
            ws()
            if (i < s.length && s[i] == ']') { i++; return l }
            while (true) {
                ws()
                l.add(value(depth + 1))
                ws()
                if (i >= s.length) throw fail("unexpected end in an array")
                when (s[i++]) {
                    ',' -> { }
                    ']' -> return l
                    else -> { i--; throw fail("expected ',' or ']'") }
                }
            }
        }

        fun str(): String {
            i++ // the opening quote
            val sb = StringBuilder()
            while (true) {
                if (i >= s.length) throw fail("unterminated string")
                val c = s[i++]
                when {
                    c == '"' -> return sb.toString()
                    c == '\\' -> {
                        if (i >= s.length) throw fail("unterminated escape")
                        when (val e = s[i++]) {
                            '"' -> sb.append('"')
                            '\\' -> sb.append('\\')
                            '/' -> sb.append('/')
                            'b' -> sb.append('\b')
                            'f' -> sb.append('\u000c')
                            'n' -> sb.append('\n')
                            'r' -> sb.append('\r')
                            't' -> sb.append('\t')
                            'u' -> {
                                if (i + 4 > s.length) throw fail("short \\u escape")
                                var code = 0
                                for (k in 0 until 4) {
                                    val d = Character.digit(s[i + k], 16)
                                    if (d < 0) throw fail("bad \\u escape")
                                    code = code * 16 + d
                                }
                                i += 4
                                sb.append(code.toChar())
                            }
                            else -> { i--; throw fail("bad escape '\\$e'") }
                        }
                    }
                    c < ' ' -> { i--; throw fail("control character in a string") }
                    else -> sb.append(c)
                }
            }
        }

        fun num(): Number {
            val start = i
            if (i < s.length && s[i] == '-') i++
            if (i >= s.length) throw fail("unexpected end in a number")
            if (s[i] == '0') i++
            else if (s[i] in '1'..'9') while (i < s.length && s[i] in '0'..'9') i++
            else throw fail("unexpected character '${s[i]}'")
            var integer = true
            if (i < s.length && s[i] == '.') {
                integer = false
                i++
                val d = i
                while (i < s.length && s[i] in '0'..'9') i++
                if (i == d) throw fail("digits expected after '.'")
            }
            if (i < s.length && (s[i] == 'e' || s[i] == 'E')) {
                integer = false
                i++
                if (i < s.length && (s[i] == '+' || s[i] == '-')) i++
                val d = i
                while (i < s.length && s[i] in '0'..'9') i++
                if (i == d) throw fail("digits expected in the exponent")
            }
            val t = s.substring(start, i)
            if (integer) t.toLongOrNull()?.let { return it }
            return t.toDouble()
        }
    }
}

/** A document that is not valid JSON. */
class JsonException(message: String) : Exception(message)

/**
 * Typed reading of a parsed JSON object: every accessor throws
 * [MalformedAnswerException] (naming the path) when a member is missing
 * or of another type, so that an unexpected answer is a typed error,
 * never a ClassCastException.
 */
class JsonObject(val map: Map<String, Any?>, val path: String = "$") {
    private fun bad(name: String, want: String): MalformedAnswerException =
        MalformedAnswerException("$path.$name: want $want, got ${describe(map[name], map.containsKey(name))}")

    fun has(name: String) = map[name] != null

    fun string(name: String): String = map[name] as? String ?: throw bad(name, "a string")
    fun stringOrNull(name: String): String? = if (map[name] == null) null else string(name)
    fun long(name: String): Long = asLong(map[name]) ?: throw bad(name, "an integer")
    fun longOrNull(name: String): Long? = if (map[name] == null) null else long(name)
    fun int(name: String): Int = long(name).let { if (it in Int.MIN_VALUE..Int.MAX_VALUE) it.toInt() else throw bad(name, "a 32-bit integer") }
    fun intOrNull(name: String): Int? = if (map[name] == null) null else int(name)
    fun double(name: String): Double = (map[name] as? Number)?.toDouble() ?: throw bad(name, "a number")
    fun doubleOrNull(name: String): Double? = if (map[name] == null) null else double(name)
    fun bool(name: String): Boolean = map[name] as? Boolean ?: throw bad(name, "a boolean")
    fun boolOrNull(name: String): Boolean? = if (map[name] == null) null else bool(name)

    @Suppress("UNCHECKED_CAST")
    fun obj(name: String): JsonObject = JsonObject(map[name] as? Map<String, Any?> ?: throw bad(name, "an object"), "$path.$name")
    fun objOrNull(name: String): JsonObject? = if (map[name] == null) null else obj(name)
    fun list(name: String): List<Any?> = map[name] as? List<Any?> ?: throw bad(name, "an array")
    fun listOrNull(name: String): List<Any?>? = if (map[name] == null) null else list(name)

    /** The array's elements as objects. */
    @Suppress("UNCHECKED_CAST")
    fun objects(name: String): List<JsonObject> = list(name).mapIndexed { k, v ->
        JsonObject(v as? Map<String, Any?> ?: throw MalformedAnswerException("$path.$name[$k]: want an object, got ${describe(v, true)}"), "$path.$name[$k]")
    }

    fun strings(name: String): List<String> = list(name).mapIndexed { k, v ->
        v as? String ?: throw MalformedAnswerException("$path.$name[$k]: want a string, got ${describe(v, true)}")
    }

    fun doubles(name: String): List<Double> = list(name).mapIndexed { k, v ->
        (v as? Number)?.toDouble() ?: throw MalformedAnswerException("$path.$name[$k]: want a number, got ${describe(v, true)}")
    }

    /** A matrix of integers or nulls (tdmv1's distance and duration). */
    fun matrix(name: String): List<List<Long?>> = list(name).mapIndexed { r, row ->
        val l = row as? List<*> ?: throw MalformedAnswerException("$path.$name[$r]: want an array, got ${describe(row, true)}")
        l.mapIndexed { c, v ->
            if (v == null) null else asLong(v) ?: throw MalformedAnswerException("$path.$name[$r][$c]: want an integer or null, got ${describe(v, true)}")
        }
    }

    override fun toString() = Json.write(map)

    companion object {
        /** The document's top-level object, or a [MalformedAnswerException]. */
        @JvmStatic
        @Suppress("UNCHECKED_CAST")
        fun of(v: Any?): JsonObject = JsonObject(v as? Map<String, Any?> ?: throw MalformedAnswerException("$: want an object, got ${describe(v, true)}"))

        internal fun asLong(v: Any?): Long? = when (v) {
            is Long -> v
            is Int -> v.toLong()
            is Double -> if (v == Math.rint(v) && Math.abs(v) < 9.0e15) v.toLong() else null
            else -> null
        }

        internal fun describe(v: Any?, present: Boolean): String = when {
            !present -> "nothing"
            v == null -> "null"
            v is String -> "a string"
            v is Number -> "a number"
            v is Boolean -> "a boolean"
            v is Map<*, *> -> "an object"
            v is List<*> -> "an array"
            else -> v.javaClass.simpleName
        }
    }
}
