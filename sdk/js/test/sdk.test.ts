// The TypeScript SDK's tests, against a real `geosvc serve` on the
// Delaware bundle. The server is started by the Go SDK's test
// TestTypeScriptSDK (sdk/go, run by `make test`), which runs `npm ci` and
// `npm test` here with GEOSVC_TEST_URL and GEOSVC_TEST_KEY (the demo key,
// unlimited; free trials are on the plan "slow": one request a second).
import { test } from "node:test";
import assert from "node:assert/strict";
import { ApiError, ForbiddenError, GeosvcClient, JobError, parseRetryAfter, type Point } from "../src/index.js";

const base = process.env.GEOSVC_TEST_URL ?? "";
const key = process.env.GEOSVC_TEST_KEY ?? "";
if (!base || !key) {
  throw new Error("GEOSVC_TEST_URL and GEOSVC_TEST_KEY are not set: run these tests through `go test` in sdk/go (make test)");
}

const dover: Point = { lon: -75.5244, lat: 39.1582 };
const wilmington: Point = { lon: -75.5466, lat: 39.7447 };
const bombayHook: Point = { lon: -75.47, lat: 39.26 };
const geo = new GeosvcClient({ baseUrl: base, apiKey: key });

function contains(b: { minLon: number; minLat: number; maxLon: number; maxLat: number } | undefined, p: Point): boolean {
  return b !== undefined && b.minLon <= p.lon && p.lon <= b.maxLon && b.minLat <= p.lat && p.lat <= b.maxLat;
}

function haversine(a: Point, b: Point): number {
  const r = 6371008.8, rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad, dLon = (b.lon - a.lon) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * r * Math.asin(Math.sqrt(h));
}

/** The XYZ tile of p at zoom z, by the web-mercator formulas. */
function slippy(p: Point, z: number): [number, number] {
  const n = 2 ** z, lat = (p.lat * Math.PI) / 180;
  return [Math.floor(((p.lon + 180) / 360) * n), Math.floor(((1 - Math.log(Math.tan(lat) + 1 / Math.cos(lat)) / Math.PI) / 2) * n)];
}

/** A request by hand (not through the SDK). */
async function rest(method: string, path: string, body?: unknown, apiKey = key): Promise<{ status: number; json: any }> {
  const resp = await fetch(base + path, {
    method,
    headers: { "x-api-key": apiKey, ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await resp.text();
  return { status: resp.status, json: text ? JSON.parse(text) : undefined };
}

test("every interface answers a known value", async (t) => {
  const info = await geo.info();
  await t.test("info", () => {
    for (const want of ["adminv1", "covidv1", "geoboundariesv1", "geocoderv1", "keysv1", "routev1", "tdmv1", "tilesv1", "timezonesv1", "zip4v1"]) {
      assert.ok(info.interfaces.includes(want), `interfaces ${info.interfaces} lack ${want}`);
    }
    assert.equal(info.data?.name, "delaware-latest");
  });
  await t.test("timezonesv1", async () => {
    const tz = await geo.timeZone(dover);
    assert.equal(tz.name, "America/New_York");
    assert.equal(tz.time_zone.time_zone, "UTC-05:00");
  });
  await t.test("adminv1", async () => {
    const a = await geo.admin(dover, "admin5");
    assert.equal(a.area?.properties.name, "Kent County");
    // The top-level bbox is latitude first: read the other way round it would not hold Dover.
    assert.ok(contains(a.bounds, dover) && contains(a.areaBounds, dover), JSON.stringify([a.bounds, a.areaBounds]));
  });
  await t.test("zip4v1", async () => {
    const z = await geo.zip4(dover); // sent x = latitude
    assert.equal(z.features[0]?.properties.zip9, "199010936");
    assert.ok(contains(z.bounds, dover), JSON.stringify(z.bounds));
    const byCode = await geo.zip4Code("199010936");
    assert.equal(byCode.features[0]?.properties.zip, "19901");
  });
  await t.test("geocoderv1", async () => {
    const g = await geo.geocode("Dover, DE");
    const loc = g.results[0]?.geometry.location;
    assert.ok(loc && haversine(dover, { lon: loc.lng, lat: loc.lat }) < 3000, JSON.stringify(loc));
    const r = await geo.reverseGeocode(dover);
    assert.match(r.results[0]?.formatted_address ?? "", /Dover, DE/);
    await assert.rejects(geo.geocode(""), (e: unknown) => e instanceof ApiError && e.geocoderStatus === "INVALID_REQUEST");
  });
  await t.test("geocoderv1 autocomplete", async () => {
    // Rehoboth Beach's town node, before the streets named after it.
    const a = await geo.autocomplete("Rehob", { limit: 5, layers: ["place", "street"] });
    assert.equal(a.results[0]?.address_components[0]?.long_name, "Rehoboth Beach", JSON.stringify(a.results[0]));
    // The Wawa POI nearest Dover (4.4 km) of the extract's 28.
    const w = await geo.autocomplete("Waw", { focus: dover });
    assert.equal(w.results[0]?.place_id, "en2091657479", JSON.stringify(w.results[0]));
    // Dover's place node has name:ru=Довер.
    const ru = await geo.autocomplete("Dover", { lang: "ru", layers: ["place"] });
    assert.equal(ru.results[0]?.address_components[0]?.long_name, "Довер");
    await assert.rejects(geo.autocomplete("Dov", { limit: 21 }), (e: unknown) => e instanceof ApiError && e.status === 400 && e.geocoderStatus === "INVALID_REQUEST");
  });
  await t.test("geoboundariesv1", async () => {
    const bs = await geo.geoBoundaries(bombayHook);
    assert.equal(bs[0]?.geo_boundary_name, "Bombay Hook National Wildlife Refuge");
    assert.equal(bs[0]?.category_code, 922);
    assert.deepEqual(await geo.geoBoundaries(bombayHook, 921), []);
  });
  await t.test("covidv1", async () => {
    const h = await geo.covidAt(dover, "admin2");
    assert.equal(h.hierarchy_data["p0"]?.name, "Kent");
    const cs = await geo.covidCountries();
    assert.ok(cs.codes.some((c) => c.ISO3 === "USA"));
    const [x, y] = slippy(dover, 16);
    const tile = await geo.covidTileAt(dover, 16);
    assert.equal(tile.features.length, 1);
    assert.deepEqual([tile.features[0].properties.x_index, tile.features[0].properties.y_index], [x, y]);
    const byIndex = await geo.covidTile(x, y, 16);
    assert.equal(byIndex.features[0]?.id, tile.features[0].id);
  });
  await t.test("routev1", async () => {
    const r = await geo.route(dover, wilmington, "fastest");
    const want = await rest("GET", "/routev1/route?from=-75.5244,39.1582&to=-75.5466,39.7447");
    assert.equal(want.status, 200);
    assert.deepEqual(r, want.json);
    const crow = haversine(dover, wilmington);
    assert.ok(r.distance > crow && r.distance < 2 * crow, `${r.distance} m, straight line ${crow}`);
    assert.equal(r.steps[0].maneuver, "depart");
    assert.equal(r.steps[r.steps.length - 1].maneuver, "arrive");
  });
  await t.test("matchv1", async () => {
    // docs/matching.md's trace: routev1's route from -75.56,39.73 to
    // -75.545,39.746 (3065 m), six of its vertices moved ~5 m.
    const points = [[-75.56176, 39.73006], [-75.56144, 39.73433], [-75.55803, 39.7391], [-75.552, 39.7377], [-75.54893, 39.73866], [-75.54518, 39.74606]]
      .map(([lon, lat]) => ({ lon, lat }));
    const m = await geo.match({ points });
    const want = await rest("POST", "/matchv1/match", { points });
    assert.equal(want.status, 200);
    assert.deepEqual(m, want.json);
    assert.equal(m.matchings.length, 1);
    assert.ok(m.matchings[0].distance > 3000 && m.matchings[0].distance < 3200, `${m.matchings[0].distance} m, want about 3065`);
    assert.equal(m.tracepoints.length, points.length);
  });
  await t.test("routev1 with options", async () => {
    const newark = { lon: -75.75, lat: 39.68 }, wilm = { lon: -75.55, lat: 39.74 };
    const r = await geo.routeWith(newark, wilm, { routing: "fastest", speeds: { Motorway: 80, LocalRoadCity: 25 }, avoid: ["toll"], alternatives: 2 });
    const want = await rest("GET", "/routev1/route?from=-75.75,39.68&to=-75.55,39.74&routing=fastest&speeds=LocalRoadCity:25,Motorway:80&avoid=toll&alternatives=2");
    assert.equal(want.status, 200);
    assert.deepEqual(r, want.json);
    assert.ok(r.alternatives && r.alternatives.length > 0, "no alternatives between Newark and Wilmington");
    for (const a of r.alternatives!) {
      assert.ok(a.duration >= r.duration && a.steps.length >= 2, `alternative ${a.duration} s, best ${r.duration} s`);
    }
  });
  await t.test("routev1 lang", async () => {
    // Delaware's car ways have no name:xx (osmium on the extract): lang=de
    // answers the default names and no lang, as the REST call does.
    const newark = { lon: -75.75, lat: 39.68 }, wilm = { lon: -75.55, lat: 39.74 };
    const r = await geo.routeWith(newark, wilm, { lang: "de" });
    const want = await rest("GET", "/routev1/route?from=-75.75,39.68&to=-75.55,39.74&lang=de");
    const plain = await rest("GET", "/routev1/route?from=-75.75,39.68&to=-75.55,39.74");
    assert.equal(want.status, 200);
    assert.deepEqual(r, want.json);
    assert.deepEqual(r, plain.json);
    assert.equal(r.lang, undefined);
  });
  await t.test("tilesv1", async () => {
    const [x, y] = slippy(dover, 14);
    const png = await geo.tile(14, x, y);
    const dv = new DataView(png.buffer, png.byteOffset);
    assert.deepEqual([...png.slice(1, 4)], [0x50, 0x4e, 0x47]); // "PNG"
    assert.deepEqual([dv.getUint32(16), dv.getUint32(20)], [256, 256]); // IHDR width, height
    const tok = await geo.tileToken();
    assert.ok(tok.token && Date.parse(tok.expires_at) - Date.now() > 50 * 60 * 1000);
  });
  await t.test("keysv1", async () => {
    const s = await geo.usage();
    assert.equal(s.plan, "internal");
    assert.equal(s.month, new Date().toISOString().slice(0, 7));
    const k = await geo.trial({ email: `ts-interfaces-${Date.now()}@example.com`, name: "SDK test" });
    assert.equal(k.plan, "slow");
    assert.match(k.api_key, /^gs_/);
    await assert.rejects(
      geo.checkout({ plan: "slow" }),
      (e: unknown) => e instanceof ApiError && e.status === 404 && /not sold online/.test(e.serverMessage),
    );
  });
});

test("a matrix equals the REST one", async () => {
  const origins = [dover, wilmington, { lon: -75.7527, lat: 39.6837 }];
  const dests = [{ lon: -75.1391, lat: 38.7746 }, dover, wilmington];
  const got = await geo.matrix(origins, dests, { waitSeconds: 1 });
  const order = await rest("POST", "/tdmv1/order", {
    origin_addresses: ["-75.5244,39.1582", "-75.5466,39.7447", "-75.7527,39.6837"],
    destination_addresses: ["-75.1391,38.7746", "-75.5244,39.1582", "-75.5466,39.7447"],
  });
  assert.equal(order.status, 200);
  let want: any;
  for (const deadline = Date.now() + 60000; want?.status !== "Finished"; await new Promise((r) => setTimeout(r, 100))) {
    assert.ok(Date.now() < deadline, "REST matrix not Finished within 60 s");
    want = (await rest("POST", "/tdmv1/fetch", { uuid: order.json.uuid })).json;
  }
  assert.ok(got.duration && got.distance);
  assert.deepEqual(got.duration, want.duration);
  assert.deepEqual(got.distance, want.distance);
  assert.equal(got.origin_addresses[0], "-75.5244,39.1582");
  assert.ok((got.distance[0][1] ?? Infinity) <= 50, "Dover to Dover");
});

test("a 429 is retried after its Retry-After", async () => {
  const k = await new GeosvcClient({ baseUrl: base }).trial({ email: `ts-retry-${Date.now()}@example.com` });
  const statuses: number[] = [];
  const counting: typeof fetch = async (input, init) => {
    const resp = await fetch(input, init);
    statuses.push(resp.status);
    return resp;
  };
  const slow = new GeosvcClient({ baseUrl: base, apiKey: k.api_key, fetch: counting });
  const path = "/timezonesv1/xy2tzdata?x=-75.5244&y=39.1582";
  // The first attempt misses the 429 only if a second passed since the draining request: a few tries.
  for (let attempt = 0; ; attempt++) {
    statuses.length = 0;
    await rest("GET", path, undefined, k.api_key);
    assert.equal((await slow.timeZone(dover)).name, "America/New_York");
    if (statuses.length >= 2 && statuses[0] === 429 && statuses[statuses.length - 1] === 200) break;
    assert.ok(attempt < 2, `answers ${statuses}, want 429 then 200`);
  }
  const noRetry = new GeosvcClient({ baseUrl: base, apiKey: k.api_key, maxRetries: 0 });
  for (let attempt = 0; ; attempt++) {
    await rest("GET", path, undefined, k.api_key);
    const err = await noRetry.timeZone(dover).then(() => undefined, (e: unknown) => e);
    if (err instanceof ApiError && err.status === 429) {
      assert.ok((err.retryAfterMs ?? 0) >= 1000 && /rate limit/.test(err.serverMessage), String(err));
      break;
    }
    assert.ok(attempt < 2, `without retries: ${err}, want a 429 ApiError`);
    await new Promise((r) => setTimeout(r, 1100));
  }
});

test("a bad key is a ForbiddenError", async (t) => {
  const bad = new GeosvcClient({ baseUrl: base, apiKey: "gs_not_a_key_of_this_server_0123456789" });
  const calls: [string, () => Promise<unknown>][] = [
    ["timezonesv1", () => bad.timeZone(dover)],
    ["adminv1", () => bad.admin(dover, "admin8")],
    ["zip4v1", () => bad.zip4(dover)],
    ["tdmv1", () => bad.matrix([dover], [wilmington])],
    ["keysv1", () => bad.usage()],
  ];
  for (const [name, call] of calls) {
    await t.test(name, () =>
      assert.rejects(call(), (e: unknown) => e instanceof ForbiddenError && e instanceof ApiError && e.status === 403 && e.serverMessage === "Forbidden"),
    );
  }
});

test("an aborted signal stops a matrix wait and cancels the job", async () => {
  const pts: Point[] = Array.from({ length: 1000 }, (_, i) => ({ lon: -75.75 + (i % 40) * 0.0125, lat: 38.8 + Math.floor(i / 40) * 0.035 }));
  const ac = new AbortController();
  let armed = false;
  // Abort shortly after the first fetch went out, while the server holds it.
  const aborting: typeof fetch = (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    if (!armed && url.endsWith("/tdmv1/fetch")) {
      armed = true;
      setTimeout(() => ac.abort(), 20);
    }
    return fetch(input, init);
  };
  const c = new GeosvcClient({ baseUrl: base, apiKey: key, fetch: aborting });
  let uuid = "";
  await assert.rejects(
    c.matrix(pts, pts, { signal: ac.signal, onOrder: (id) => (uuid = id) }),
    (e: unknown) => e instanceof Error && e.name === "AbortError",
  );
  const err = await geo.fetchMatrix(uuid).then(() => undefined, (e: unknown) => e);
  assert.ok(err instanceof JobError && err.status === "Cancelled", `job ${uuid} after the abort: ${err}`);
});

test("Retry-After is read in seconds or as a date", () => {
  assert.equal(parseRetryAfter(null), undefined);
  assert.equal(parseRetryAfter("1"), 1000);
  assert.equal(parseRetryAfter("43200"), 43200000);
  assert.equal(parseRetryAfter("soon"), undefined);
  assert.equal(parseRetryAfter("-3"), undefined);
  const d = parseRetryAfter(new Date(Date.now() + 90000).toUTCString()) ?? 0;
  assert.ok(d > 85000 && d <= 90000, String(d));
});

test("batches, time zones at an instant, the admin hierarchy (issue 26)", async () => {
  const moscow: Point = { lon: 37.6173, lat: 55.7558 };
  const tz2013 = await geo.timeZoneAt(moscow, new Date("2013-07-15T12:00:00Z"));
  const tz2015 = await geo.timeZoneAt(moscow, new Date("2015-07-15T12:00:00Z"));
  assert.deepEqual([tz2013.time_zone_id, tz2013.raw_offset_s, tz2013.dst_offset_s, tz2013.abbreviation], ["Europe/Moscow", 14400, 0, "MSK"]);
  assert.equal(tz2015.raw_offset_s, 10800);
  const names = (await geo.adminHierarchy(dover)).map((f) => f.properties.name);
  assert.deepEqual(names, ["United States of America", "Delaware", "Kent County", "Dover"]);
  const rev = await geo.reverseGeocodeBatch([dover, { lon: -75.5, lat: 99 }]);
  assert.deepEqual(rev[0], await geo.reverseGeocode(dover));
  assert.equal(rev[1]?.status, "INVALID_REQUEST");
  const fwd = await geo.geocodeBatch(["Loockerman Street, Dover"]);
  assert.deepEqual(fwd[0], await geo.geocode("Loockerman Street, Dover"));
  const lk = await geo.lookupsBatch([dover, { lon: 200, lat: 0 }], ["timezone", "admin"]);
  assert.deepEqual([lk[0]?.status, lk[1]?.status], [200, 400]);
  const { name: _name, ...single } = await geo.timeZone(dover);
  assert.deepEqual(lk[0]?.timezone, single);
  assert.equal(lk[0]?.admin?.features.length, 4);
});
