package io.github.geosvc.tests

import io.github.geosvc.GeosvcClient
import io.github.geosvc.Operation
import java.io.BufferedInputStream
import java.io.DataInputStream
import java.io.File
import java.io.FileInputStream
import java.util.TreeMap
import java.util.TreeSet

/**
 * The SDK's surface: every operation of api/openapi.yaml has a method
 * (OpenApiCoverage), and every JDK class and member the compiled library
 * references is in Android's API at the minSdk of docs/sdks.md
 * (AndroidApiSurface, against the allowlist android-api.txt).
 */
object SurfaceTests {
    /**
     * The operations the SDK leaves out on purpose, each with its reason
     * (docs/sdks.md lists them). Only HTML console pages and calls no
     * client makes belong here.
     */
    val excluded = mapOf(
        "signupPage" to "an HTML page of the console (the free-trial form) for a browser; trial() posts what its form posts",
        "pricingPage" to "an HTML page of the console (the plans and prices) for a browser; checkout() starts what its forms start",
        "keysStripeWebhook" to "called by Stripe only, signed with the server's webhook secret: server to server, never by a client"
    )

    private val sdkDir: File get() = File(System.getProperty("user.dir"))

    /** The operations of the OpenAPI document: operationId to "METHOD /path", read line by line (the document's own layout). */
    fun operations(yaml: File): Map<String, String> {
        val ops = TreeMap<String, String>()
        var path: String? = null
        var method: String? = null
        var inPaths = false
        for (line in yaml.readLines()) {
            if (line.startsWith("paths:")) { inPaths = true; continue }
            if (inPaths && line.length > 0 && !line.startsWith(" ") && !line.startsWith("#")) inPaths = false
            if (!inPaths) continue
            Regex("^  (/\\S*):\\s*$").find(line)?.let { path = it.groupValues[1]; method = null }
            Regex("^    (get|put|post|delete|patch|head|options):\\s*$").find(line)?.let { method = it.groupValues[1].toUpperCase() }
            Regex("^      operationId:\\s*(\\S+)\\s*$").find(line)?.let {
                val id = it.groupValues[1]
                if (path == null || method == null) T.fail("operationId $id outside a path's method")
                if (ops.put(id, "$method $path") != null) T.error("operationId $id twice")
            }
        }
        return ops
    }

    /** operationId to the client's public methods that name it in @Operation. */
    fun implemented(): Map<String, List<String>> {
        val m = TreeMap<String, MutableList<String>>()
        for (meth in GeosvcClient::class.java.methods) {
            val a = meth.getAnnotation(Operation::class.java) ?: continue
            for (id in a.ids) m.getOrPut(id) { ArrayList() }.add(meth.name)
        }
        return m
    }

    /** What a class file references: classes, and members as owner.name(desc) or owner.name:desc (internal names). */
    class Refs(val major: Int, val classes: MutableSet<String> = TreeSet(), val members: MutableSet<String> = TreeSet())

    /** Reads a class file's constant pool (JVM spec 4.4), the references every use of another class goes through. */
    fun refs(f: File): Refs {
        DataInputStream(BufferedInputStream(FileInputStream(f))).use { d ->
            if (d.readInt() != 0xCAFEBABE.toInt()) T.fail("$f: not a class file")
            d.readUnsignedShort()
            val r = Refs(d.readUnsignedShort())
            val n = d.readUnsignedShort()
            val tag = IntArray(n)
            val a = IntArray(n)
            val b = IntArray(n)
            val utf = arrayOfNulls<String>(n)
            var i = 1
            while (i < n) {
                val t = d.readUnsignedByte()
                tag[i] = t
                when (t) {
                    1 -> utf[i] = d.readUTF()
                    3, 4 -> d.readInt()
                    5, 6 -> { d.readLong(); i++ }
                    7, 8, 16, 19, 20 -> a[i] = d.readUnsignedShort()
                    9, 10, 11, 12, 17, 18 -> { a[i] = d.readUnsignedShort(); b[i] = d.readUnsignedShort() }
                    15 -> { d.readUnsignedByte(); a[i] = d.readUnsignedShort() }
                    else -> T.fail("$f: constant pool tag $t at $i")
                }
                i++
            }
            fun cls(k: Int): String = utf[a[k]]!!.trimStart('[').let { if (it.startsWith("L") && it.endsWith(";")) it.substring(1, it.length - 1) else it }
            for (k in 1 until n) when (tag[k]) {
                7 -> r.classes.add(cls(k))
                9, 10, 11 -> {
                    val owner = cls(a[k])
                    val nat = b[k]
                    val name = utf[a[nat]]!!
                    val desc = utf[b[nat]]!!
                    r.classes.add(owner)
                    r.members.add(if (tag[k] == 9) "$owner.$name:$desc" else "$owner.$name$desc")
                }
                1 -> for (mt in Regex("L([a-z][A-Za-z0-9_]*(?:/[A-Za-z0-9_$]+)+)[;<]").findAll(utf[k]!!)) r.classes.add(mt.groupValues[1])
            }
            return r
        }
    }

    /** The allowlist: minSdk and each class or member to the API level it entered Android. */
    class Allowlist(val minSdk: Int, val levels: Map<String, Int>)

    fun allowlist(f: File): Allowlist {
        var min: Int? = null
        val levels = HashMap<String, Int>()
        for ((k, raw) in f.readLines().withIndex()) {
            val line = raw.substringBefore('#').trim()
            if (line.length == 0) continue
            val parts = line.split(Regex("\\s+"))
            if (parts.size != 2) T.fail("${f.name}:${k + 1}: want \"LEVEL name\" or \"minSdk N\": $raw")
            if (parts[0] == "minSdk") { min = parts[1].toInt(); continue }
            val level = parts[0].toIntOrNull() ?: T.fail("${f.name}:${k + 1}: API level ${parts[0]}")
            if (levels.put(parts[1], level) != null) T.error("${f.name}:${k + 1}: ${parts[1]} twice")
        }
        return Allowlist(min ?: T.fail("${f.name}: no minSdk line"), levels)
    }

    /**
     * Whether an internal class name is the JDK's (or a platform's), as
     * opposed to a primitive array's element ("[B"), the SDK's, Kotlin's or
     * compile-time only.
     */
    fun platform(c: String) = c.contains('/') && !c.startsWith("io/github/geosvc/") && !c.startsWith("kotlin/") &&
        // Kotlin's nullability annotations: invisible at run time (RuntimeInvisible*Annotations), never loaded.
        !c.startsWith("org/jetbrains/annotations/")

    /** The platform classes files reference, and what of them (classes and members) android-api.txt does not allow. */
    fun check(files: List<File>, allow: Allowlist): Pair<Set<String>, List<String>> {
        val classes = TreeSet<String>()
        val members = TreeSet<String>()
        val problems = ArrayList<String>()
        for (f in files) {
            val r = refs(f)
            if (r.major > 52) problems.add("${f.name}: class file version ${r.major}: D8 of minSdk 21 toolchains wants Java 8 (52) at most")
            r.classes.filterTo(classes) { platform(it) }
            r.members.filterTo(members) { platform(it.substring(0, it.indexOfAny(charArrayOf('.', ':')))) }
        }
        for (c in classes + members) {
            val level = allow.levels[c]
            when {
                level == null -> problems.add("$c: not in android-api.txt (look up the API level it entered Android, or avoid it)")
                level > allow.minSdk -> problems.add("$c: Android API $level, above minSdk ${allow.minSdk}")
            }
        }
        for (c in classes) if (c.startsWith("java/net/http/")) problems.add("$c: Android has no java.net.http")
        return classes to problems
    }

    fun register() {
        T.test("OpenApiCoverage") {
            val yaml = File(System.getenv("GEOSVC_OPENAPI") ?: File(sdkDir, "../../api/openapi.yaml").path)
            if (!yaml.isFile) T.fail("no OpenAPI document at $yaml (GEOSVC_OPENAPI)")
            val ops = operations(yaml)
            val declared = Regex("^\\s+operationId:", RegexOption.MULTILINE).findAll(yaml.readText()).count()
            T.eq(ops.size, declared, "operations read (of the document's operationId lines)")
            T.check(ops.size >= 50) { "only ${ops.size} operations read from $yaml" }
            val impl = implemented()
            for ((id, where) in ops) {
                val has = impl[id]
                if (id in excluded) {
                    if (has != null) T.error("$id ($where) is excluded but has methods $has: drop it from the exclusions")
                } else if (has == null) T.error("$id ($where) has no method of GeosvcClient: add one with @Operation(\"$id\") or a documented exclusion")
            }
            for (id in impl.keys) if (id !in ops) T.error("@Operation(\"$id\") on ${impl[id]}: no such operationId in $yaml")
            for (id in excluded.keys) if (id !in ops) T.error("excluded $id: no such operationId in $yaml")
        }
        T.test("AndroidApiSurface") {
            val dir = File(sdkDir, "build/classes/io/github/geosvc")
            val files = dir.listFiles { f -> f.isFile && f.name.endsWith(".class") }?.sortedBy { it.name } ?: T.fail("no classes in $dir (sh build.sh)")
            T.check(files.size > 20) { "only ${files.size} classes in $dir" }
            val allow = allowlist(File(sdkDir, "android-api.txt"))
            val (classes, problems) = check(files, allow)
            problems.forEach { T.error(it) }
            // The allowlist is the list of what the library uses: an entry nothing references any more goes.
            val used = HashSet<String>()
            for (f in files) refs(f).let { r -> used.addAll(r.classes); used.addAll(r.members) }
            for (e in allow.levels.keys.sorted()) if (e !in used) T.error("android-api.txt lists $e, which the library no longer references: remove it")
            T.check(classes.any { it == "java/net/HttpURLConnection" }) { "the reader missed java/net/HttpURLConnection: ${classes.take(10)}" }
            // The check bites: the tests' scripted server (com.sun.net.httpserver, JDK only) is refused.
            val fake = File(dir, "tests").listFiles { f -> f.name.startsWith("FakeServerTests") }?.toList() ?: emptyList()
            val (_, fakeProblems) = check(fake, allow)
            T.check(fakeProblems.any { it.startsWith("com/sun/net/httpserver/HttpServer:") }) { "FakeServerTests' HttpServer not refused: $fakeProblems" }
            // The minSdk the docs state is the allowlist's.
            val docs = File(sdkDir, "../../docs/sdks.md").readText()
            T.check(docs.contains("minSdk ${allow.minSdk}")) { "docs/sdks.md does not state minSdk ${allow.minSdk}" }
            // jdeps, an independent reader, finds no JDK class ours missed.
            val jdeps = File(System.getProperty("java.home"), "bin/jdeps").let { if (it.canExecute()) it.path else "jdeps" }
            val p = ProcessBuilder(jdeps, "-verbose:class", "-cp", System.getProperty("java.class.path"), File(sdkDir, "build/geosvc-kotlin.jar").path)
                .redirectErrorStream(true).start()
            val out = p.inputStream.bufferedReader().readText()
            if (p.waitFor() != 0) T.fail("jdeps: $out")
            val seen = TreeSet<String>()
            for (m in Regex("->\\s+(\\S+)\\s+(java\\.base|java\\.\\S+|jdk\\.\\S+|JDK internal API.*)$", RegexOption.MULTILINE).findAll(out))
                seen.add(m.groupValues[1].replace('.', '/'))
            T.check(seen.contains("java/net/HttpURLConnection")) { "jdeps output not read: ${out.take(300)}" }
            for (c in seen) if (c !in classes) T.error("jdeps finds $c, the constant pool reader does not")
        }
    }
}
