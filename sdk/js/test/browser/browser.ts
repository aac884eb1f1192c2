// The TypeScript SDK in a real browser (headless Chromium, driven by the Go
// SDK's TestTypeScriptSDKInBrowser): the page is served from another origin
// than the API, so CORS, the exposed headers and the browser's fetch and
// AbortController are those a web application gets. The server and key come
// in the page's query (?api=...&key=...); the results go into #results as
// JSON, one entry per check: [name, ok, detail].
import { ForbiddenError, GeosvcClient, type Point } from "../../src/index.js";

const q = new URLSearchParams(location.search);
const api = q.get("api") ?? "";
const key = q.get("key") ?? "";
const dover: Point = { lon: -75.5244, lat: 39.1582 };
const wilmington: Point = { lon: -75.5466, lat: 39.7447 };
const results: [string, boolean, string][] = [];

async function check(name: string, run: () => Promise<[boolean, string]>): Promise<void> {
  try {
    results.push([name, ...(await run())]);
  } catch (e) {
    results.push([name, false, `threw ${e}`]);
  }
}

async function main(): Promise<void> {
  const geo = new GeosvcClient({ baseUrl: api, apiKey: key });
  await check("timezonesv1 with X-Time-Zone", async () => {
    const tz = await geo.timeZone(dover);
    return [tz.name === "America/New_York", tz.name];
  });
  await check("adminv1", async () => {
    const a = await geo.admin(dover, "admin5");
    return [a.area?.properties.name === "Kent County", String(a.area?.properties.name)];
  });
  await check("zip4v1", async () => {
    const z = await geo.zip4(dover);
    return [z.features[0]?.properties.zip9 === "199010936", String(z.features[0]?.properties.zip9)];
  });
  await check("tdmv1 matrix", async () => {
    const m = await geo.matrix([dover, wilmington], [wilmington, dover], { waitSeconds: 5 });
    const d = m.distance ?? [];
    return [d.length === 2 && (d[0][1] ?? 99) <= 50 && (d[1][0] ?? 99) <= 50 && (d[0][0] ?? 0) > 50000, JSON.stringify(m.distance)];
  });
  await check("bad key is a ForbiddenError", async () => {
    const bad = new GeosvcClient({ baseUrl: api, apiKey: "gs_not_a_key_of_this_server_0123456789" });
    const err = await bad.timeZone(dover).then(() => undefined, (e: unknown) => e);
    return [err instanceof ForbiddenError && err.status === 403, String(err)];
  });
  await check("an aborted signal stops the call", async () => {
    const ac = new AbortController();
    ac.abort();
    const err = await geo.timeZone(dover, { signal: ac.signal }).then(() => undefined, (e: unknown) => e);
    return [err instanceof Error && err.name === "AbortError", String(err)];
  });
  document.getElementById("results")!.textContent = JSON.stringify(results);
}

main().catch((e) => {
  document.getElementById("results")!.textContent = JSON.stringify([["page", false, String(e)]]);
});
