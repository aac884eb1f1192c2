package io.github.geosvc.tests

/**
 * A small assertion harness (no JUnit jar can be downloaded here): tests
 * register with [test], fail through [fail]/[check]/[eq], and [run]
 * prints one line per test and exits non-zero when any failed.
 */
object T {
    private class Case(val name: String, val body: () -> Unit)
    private class Failure(msg: String) : AssertionError(msg)
    /** A test skipped (no server). */
    class Skip(msg: String) : RuntimeException(msg)

    private val cases = ArrayList<Case>()
    private val errors = ArrayList<String>()

    fun test(name: String, body: () -> Unit) { cases.add(Case(name, body)) }

    /** Records a failure and goes on (Go's t.Errorf). */
    fun error(msg: String) { synchronized(errors) { errors.add(msg) } }

    /** Ends the test with a failure (Go's t.Fatalf). */
    fun fail(msg: String): Nothing = throw Failure(msg)

    fun skip(msg: String): Nothing = throw Skip(msg)

    fun check(ok: Boolean, msg: () -> String) { if (!ok) error(msg()) }

    fun <X> eq(got: X, want: X, what: String) { if (got != want) error("$what: got $got, want $want") }

    /** Runs block and returns the exception of type E it must throw. */
    inline fun <reified E : Throwable> throws(what: String, block: () -> Unit): E {
        try {
            block()
        } catch (e: Throwable) {
            if (e is Skip) throw e
            if (e is E) return e
            fail("$what: threw ${e.javaClass.name}: ${e.message}, want ${E::class.java.simpleName}")
        }
        fail("$what: no exception, want ${E::class.java.simpleName}")
    }

    /** Runs the tests whose name matches filter (a regex; null: all); returns the number failed. */
    fun run(filter: String?): Int {
        var failed = 0
        var skipped = 0
        val re = filter?.let { Regex(it) }
        for (c in cases) {
            if (re != null && !re.containsMatchIn(c.name)) continue
            synchronized(errors) { errors.clear() }
            val start = System.nanoTime()
            var fatal: String? = null
            var skipMsg: String? = null
            try {
                c.body()
            } catch (e: Skip) {
                skipMsg = e.message
            } catch (e: Failure) {
                fatal = e.message
            } catch (e: Throwable) {
                fatal = "unexpected ${e.javaClass.name}: ${e.message}\n" + e.stackTrace.take(8).joinToString("\n") { "\t$it" }
            }
            val ms = (System.nanoTime() - start) / 1_000_000
            val errs = synchronized(errors) { errors.toList() } + listOfNotNull(fatal)
            when {
                skipMsg != null -> { skipped++; println("--- SKIP: ${c.name} ($skipMsg)") }
                errs.isEmpty() -> println("--- PASS: ${c.name} (${ms} ms)")
                else -> {
                    failed++
                    println("--- FAIL: ${c.name} (${ms} ms)")
                    errs.forEach { println("    $it") }
                }
            }
        }
        println(if (failed == 0) "PASS ($skipped skipped)" else "FAIL: $failed failed")
        return failed
    }
}

fun main(args: Array<String>) {
    JsonTests.register()
    FakeServerTests.register()
    FakeMoreTests.register()
    SurfaceTests.register()
    LiveTests.register()
    LiveMoreTests.register()
    val failed = T.run(args.firstOrNull())
    System.exit(if (failed == 0) 0 else 1)
}
