/**
 * The TypeScript client of geosvc's REST interfaces, for Node 18+ and
 * browsers (and so React Native and mobile web views).
 *
 * It wraps openapi-fetch with the types openapi-typescript generated from
 * api/openapi.yaml (./schema.ts) in typed methods, one per operation, that
 * take points as `{ lon, lat }` and write each interface's own convention
 * on the wire: zip4v1's x is the latitude, tdmv1 and routev1 write
 * "lon,lat", adminv1 and zip4v1 answer their top-level bbox latitude
 * first. Every call sends the API key, retries 429 and 503 answers with
 * backoff (honouring Retry-After), stops when its AbortSignal aborts, and
 * throws an ApiError (ForbiddenError for a 403) carrying the status and
 * the server's message. `matrix` orders a time-distance matrix, long-polls
 * its job and returns the matrices.
 *
 *     const geo = new GeosvcClient({ baseUrl: "http://localhost:8080", apiKey });
 *     const tz = await geo.timeZone({ lon: -75.5244, lat: 39.1582 });
 *     tz.name; // "America/New_York"
 */
import createClient from "openapi-fetch";
import type { components, paths } from "./schema.js";

export type { components, paths } from "./schema.js";

/** The schemas of api/openapi.yaml. */
export type Schemas = components["schemas"];

/** A position in decimal degrees, WGS 84. */
export interface Point {
  lon: number;
  lat: number;
}

/** A rectangle in longitude and latitude, whichever order the server wrote it in. */
export interface Bounds {
  minLon: number;
  minLat: number;
  maxLon: number;
  maxLat: number;
}

/** Per-call options: an AbortSignal that stops the call (and its retries). */
export interface CallOptions {
  signal?: AbortSignal;
}

export interface ClientOptions {
  /** The server, such as "http://localhost:8080". */
  baseUrl: string;
  /** The API key, sent in the x-api-key header (omit for key-less calls). */
  apiKey?: string;
  /** How often a 429 or 503 is retried (default 4; 0: never). */
  maxRetries?: number;
  /** The first backoff without Retry-After, in ms (default 500, doubled each time, with jitter). */
  backoffMs?: number;
  /** The longest wait before a retry, in ms (default 30000): a longer Retry-After (a daily quota) is thrown at once. */
  maxRetryWaitMs?: number;
  /** The fetch to use (default globalThis.fetch). */
  fetch?: typeof fetch;
}

/** An answer other than success: its HTTP status and the server's message. */
export class ApiError extends Error {
  /** The HTTP status (200 for a geocoder status other than OK and ZERO_RESULTS). */
  readonly status: number;
  /** The geocoder's status (INVALID_REQUEST...); undefined elsewhere. */
  readonly geocoderStatus?: string;
  /** The server's message. */
  readonly serverMessage: string;
  /** The fields of an invalid tdmv1 or keysv1 request. */
  readonly fields?: Schemas["FieldError"][];
  /** The quota of a quota's 429 (undefined for the rate limit's). */
  readonly quota?: Schemas["QuotaExceeded"]["quota"];
  /** The answer's Retry-After in ms (429, 503). */
  readonly retryAfterMs?: number;
  /** The X-Request-Id the server logged the request under. */
  readonly requestId?: string;

  constructor(op: string, status: number, body: unknown, headers?: Headers, geocoderStatus?: string) {
    const b = (typeof body === "object" && body !== null ? body : {}) as Record<string, unknown>;
    const msg = typeof b.message === "string" ? b.message : typeof body === "string" ? body.slice(0, 200) : "";
    super(geocoderStatus ? `geosvc: ${op}: ${geocoderStatus}: ${msg}` : `geosvc: ${op}: ${status} ${msg}`);
    this.name = "ApiError";
    this.status = status;
    this.geocoderStatus = geocoderStatus;
    this.serverMessage = msg;
    this.fields = Array.isArray(b.errors) ? (b.errors as Schemas["FieldError"][]) : undefined;
    this.quota = b.quota as Schemas["QuotaExceeded"]["quota"] | undefined;
    this.retryAfterMs = headers ? parseRetryAfter(headers.get("retry-after")) : undefined;
    this.requestId = headers?.get("x-request-id") ?? undefined;
  }
}

/** A 403: a missing, unknown, revoked or expired key, or a plan without the interface. */
export class ForbiddenError extends ApiError {
  constructor(op: string, body: unknown, headers?: Headers) {
    super(op, 403, body, headers);
    this.name = "ForbiddenError";
  }
}

/** The status of a matrix job, or "Expired" for a job whose result is gone (410). */
export type JobState = Schemas["JobStatus"]["status"] | "Expired";

/** A matrix job that ended without a result: Failed, Cancelled or Expired. */
export class JobError extends Error {
  constructor(
    readonly uuid: string,
    readonly status: JobState,
    readonly serverMessage = "",
  ) {
    super(`geosvc: matrix job ${uuid} ${status}${serverMessage ? ": " + serverMessage : ""}`);
    this.name = "JobError";
  }
}

/** Reads Retry-After (seconds or an HTTP date) into ms; undefined when absent or bad. */
export function parseRetryAfter(v: string | null): number | undefined {
  if (v === null || v.trim() === "") return undefined;
  const s = v.trim();
  if (/^[+-]?\d+$/.test(s)) return s.startsWith("-") ? undefined : Math.min(Number(s), 2 ** 31) * 1000;
  const t = Date.parse(s);
  return Number.isNaN(t) ? undefined : Math.max(0, t - Date.now());
}

/** Writes a point "lon,lat", as tdmv1 and routev1 read it. */
export function lonLat(p: Point): string {
  return `${p.lon},${p.lat}`;
}

function checkPoint(p: Point): void {
  if (!(p.lon >= -180 && p.lon <= 180 && p.lat >= -90 && p.lat <= 90)) {
    throw new RangeError(`geosvc: point ${lonLat(p)}: longitude must be in [-180, 180] and latitude in [-90, 90]`);
  }
}

function boundsLatFirst(b: number[] | null | undefined): Bounds | undefined {
  return b && b.length === 4 ? { minLat: b[0], minLon: b[1], maxLat: b[2], maxLon: b[3] } : undefined;
}

function boundsLonFirst(b: number[] | null | undefined): Bounds | undefined {
  return b && b.length === 4 ? { minLon: b[0], minLat: b[1], maxLon: b[2], maxLat: b[3] } : undefined;
}

function abortError(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException("This operation was aborted", "AbortError");
}

function sleep(ms: number, signal?: AbortSignal | null): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortError(signal));
    const onAbort = () => {
      clearTimeout(t);
      reject(abortError(signal!));
    };
    const t = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** A fetch that sends a request again after a 429 or 503 answer. */
export function retryingFetch(base: typeof fetch, maxRetries = 4, backoffMs = 500, maxWaitMs = 30000) {
  return async (req: Request): Promise<Response> => {
    for (let attempt = 0; ; attempt++) {
      const resp = await base(attempt < maxRetries ? req.clone() : req);
      if ((resp.status !== 429 && resp.status !== 503) || attempt >= maxRetries) return resp;
      let wait = parseRetryAfter(resp.headers.get("retry-after"));
      if (wait === undefined) wait = backoffMs * 2 ** attempt * (1 + Math.random() / 4);
      if (wait > maxWaitMs) return resp;
      await resp.body?.cancel();
      await sleep(wait, req.signal);
    }
  };
}

/** The administrative levels of adminv1, admin0 (country) to admin8. */
export type AdminLevel = paths["/adminv1/xy2admininfo"]["get"]["parameters"]["query"]["type"];

export type Routing = "fastest" | "shortest";

/** routev1's optional parameters. */
export interface RouteOptions extends CallOptions {
  /** What the route minimises (default fastest; the server also takes "efficient" and "safest"). */
  routing?: Routing | "efficient" | "safest";
  /** km/h by RoadType, e.g. { Motorway: 80, LocalRoadCity: 25 }. */
  speeds?: Record<string, number>;
  /** Road kinds to avoid: "ferry", "motorway", "toll", "unpaved". */
  avoid?: string[];
  /** Up to this many alternative routes (0 to 2), in the answer's `alternatives`. */
  alternatives?: number;
  /** The steps' street names in these languages where the data has them (OSM's name:xx), BCP 47 tags preferred first ("de", "fr-CA,fr"); the answer's `lang` is the one used. */
  lang?: string;
}

export interface GeocodeOptions extends CallOptions {
  /** Filter by component, "country:US|postal_code:19901". */
  components?: string;
  /** Bias towards a viewport, "lat,lng|lat,lng" (latitude first, as Google's). */
  bounds?: string;
  resultType?: string;
  locationType?: string;
  /** Make `bounds` a filter instead of a bias (bounds_mode=restrict; geocode only). */
  boundsRestrict?: boolean;
  /** Name the answer in these languages, BCP 47 tags preferred first ("de,fr"). */
  lang?: string;
}

export interface MatrixOptions extends CallOptions {
  /** Which matrices (default both). */
  result?: ("duration" | "distance")[];
  routing?: Routing;
  /** How long one fetch waits on the server, in seconds (default 20, at most 30). */
  waitSeconds?: number;
  /** Called with the job's uuid once ordered. */
  onOrder?: (uuid: string) => void;
  /** Called with each status fetched before the job ends. */
  onProgress?: (status: Schemas["JobStatus"]) => void;
  /** Leave the job running on the server when the signal aborts (default: cancel it). */
  keepOnAbort?: boolean;
}

export type TimeZone = Schemas["TimeZoneResponse"] & {
  /** The IANA name of the zone ("America/New_York"), from X-Time-Zone. */
  name: string;
};

export type Admin = Schemas["AdminCollection"] & {
  /** The polygon's bbox, read from the latitude-first top-level bbox. */
  bounds?: Bounds;
  /** The area's feature, undefined when the point is in none. */
  area?: Schemas["AdminFeature"];
  /** The whole area's bbox (properties.bbox, longitude first). */
  areaBounds?: Bounds;
};

export type ZIP4 = Schemas["Zip4Collection"] & {
  /** The collection's bbox, read from the latitude-first bbox. */
  bounds?: Bounds;
};

/** A Finished matrix job. */
export type MatrixResult = Schemas["MatrixResult"];

type Answer<T> = { data?: T; error?: unknown; response: Response };

/** The client of one geosvc server with one API key. */
export class GeosvcClient {
  /** The openapi-fetch client, for what the methods do not cover (same key and retries). */
  readonly raw: ReturnType<typeof createClient<paths>>;

  constructor(opts: ClientOptions) {
    const base = opts.fetch ?? globalThis.fetch.bind(globalThis);
    this.raw = createClient<paths>({
      baseUrl: opts.baseUrl.replace(/\/+$/, ""),
      headers: opts.apiKey ? { "x-api-key": opts.apiKey } : {},
      fetch: retryingFetch(base, opts.maxRetries ?? 4, opts.backoffMs ?? 500, opts.maxRetryWaitMs ?? 30000),
    });
  }

  private ok<T>(op: string, a: Answer<T>): T {
    if (a.response.status === 200 && a.data !== undefined) return a.data;
    return this.fail(op, a.response, a.error);
  }

  private fail(op: string, resp: Response, body: unknown): never {
    if (resp.status === 403) throw new ForbiddenError(op, body, resp.headers);
    throw new ApiError(op, resp.status, body, resp.headers);
  }

  /** The server's version, interfaces and data bundle (no key needed). */
  async info(o: CallOptions = {}): Promise<Schemas["Info"]> {
    return this.ok("info", await this.raw.GET("/v1/info", { signal: o.signal }));
  }

  /** The ZIP+4 areas containing p (zip4v1: sent x = latitude, y = longitude). */
  async zip4(p: Point, o: CallOptions = {}): Promise<ZIP4> {
    checkPoint(p);
    return this.zip4Query({ x: p.lat, y: p.lon }, o);
  }

  /** The area(s) of a nine-digit ZIP+4 code. */
  async zip4Code(zip9: string, o: CallOptions = {}): Promise<ZIP4> {
    return this.zip4Query({ zip9 }, o);
  }

  private async zip4Query(query: { x?: number; y?: number; zip9?: string }, o: CallOptions): Promise<ZIP4> {
    const v = this.ok("xy2zip", await this.raw.GET("/zip4v1/xy2zip", { params: { query }, signal: o.signal }));
    return { ...v, bounds: boundsLatFirst(v.bbox) };
  }

  private geocoded(op: string, a: Answer<Schemas["GeocodeResponse"]>): Schemas["GeocodeResponse"] {
    const v = this.ok(op, a);
    if (v.status !== "OK" && v.status !== "ZERO_RESULTS") {
      throw new ApiError(op, a.response.status, { message: v.error_message ?? "" }, a.response.headers, v.status);
    }
    return v;
  }

  /** Places matching a free-text address (geocoderv1); ZERO_RESULTS is no results, other statuses throw. */
  async geocode(address: string, o: GeocodeOptions = {}): Promise<Schemas["GeocodeResponse"]> {
    const query = {
      address, components: o.components, bounds: o.bounds, result_type: o.resultType, location_type: o.locationType,
      bounds_mode: o.boundsRestrict ? ("restrict" as const) : undefined, lang: o.lang,
    };
    return this.geocoded("geocode", await this.raw.GET("/geocoderv1/geocoder", { params: { query }, signal: o.signal }));
  }

  /** The addresses at p, nearest first (geocoderv1/rev-geocoder). */
  async reverseGeocode(p: Point, o: GeocodeOptions = {}): Promise<Schemas["GeocodeResponse"]> {
    checkPoint(p);
    const query = { x: p.lon, y: p.lat, result_type: o.resultType, location_type: o.locationType, lang: o.lang };
    return this.geocoded("rev-geocode", await this.raw.GET("/geocoderv1/rev-geocoder", { params: { query }, signal: o.signal }));
  }

  /** The time zone and local area at p (timezonesv1), with the zone's IANA name. */
  async timeZone(p: Point, o: CallOptions = {}): Promise<TimeZone> {
    checkPoint(p);
    const a = await this.raw.GET("/timezonesv1/xy2tzdata", { params: { query: { x: p.lon, y: p.lat } }, signal: o.signal });
    const v = this.ok("xy2tzdata", a);
    return { ...v, name: a.response.headers.get("x-time-zone") ?? "" };
  }

  /** The administrative area of a level at p, or the nearest coarser one (adminv1). */
  async admin(p: Point, level: AdminLevel, o: CallOptions = {}): Promise<Admin> {
    checkPoint(p);
    const v = this.ok(
      "xy2admininfo",
      await this.raw.GET("/adminv1/xy2admininfo", { params: { query: { x: p.lon, y: p.lat, type: level } }, signal: o.signal }),
    );
    const area = v.features[0];
    return { ...v, bounds: boundsLatFirst(v.bbox), area, areaBounds: boundsLonFirst(area?.properties.bbox) };
  }

  /** The non-administrative boundaries at p, smallest first; category narrows to one (geoboundariesv1). */
  async geoBoundaries(p: Point, category?: number, o: CallOptions = {}): Promise<Schemas["GeoBoundary"][]> {
    checkPoint(p);
    const query = { x: p.lon, y: p.lat, geo_boundary: category };
    return this.ok("xy2bounddata", await this.raw.GET("/geoboundariesv1/xy2bounddata", { params: { query }, signal: o.signal }))
      .boundaries;
  }

  /** The route from one point to another (routev1; points sent "lon,lat"). */
  async route(from: Point, to: Point, routing?: Routing, o: CallOptions = {}): Promise<Schemas["Route"]> {
    return this.routeWith(from, to, { ...o, routing });
  }

  /** route with routev1's every option: speeds, avoid, alternatives, lang. */
  async routeWith(from: Point, to: Point, o: RouteOptions = {}): Promise<Schemas["Route"]> {
    checkPoint(from);
    checkPoint(to);
    const speeds = o.speeds && Object.keys(o.speeds).length > 0
      ? Object.keys(o.speeds).sort().map((k) => `${k}:${o.speeds![k]}`).join(",")
      : undefined;
    const query = {
      from: lonLat(from), to: lonLat(to), routing: o.routing, speeds,
      avoid: o.avoid && o.avoid.length > 0 ? o.avoid.join(",") : undefined,
      alternatives: o.alternatives || undefined,
      lang: o.lang || undefined,
    };
    return this.ok("route", await this.raw.GET("/routev1/route", { params: { query }, signal: o.signal }));
  }

  /**
   * Matches a GPS trace to the roads (matchv1): the body as the document
   * gives it (points, radiuses, gaps, tidy, routing, profile). A trace with
   * no road near is an error of status 404 (NoSegment or NoMatch).
   */
  async match(
    body: NonNullable<paths["/matchv1/match"]["post"]["requestBody"]>["content"]["application/json"],
    o: CallOptions = {},
  ): Promise<Schemas["MatchAnswer"]> {
    return this.ok("match", await this.raw.POST("/matchv1/match", { body, signal: o.signal }));
  }

  /** The countries with health data (covidv1). */
  async covidCountries(o: CallOptions = {}): Promise<Schemas["CovidCountries"]> {
    return this.ok("covid-countries", await this.raw.GET("/covidv1/countries/list", { signal: o.signal }));
  }

  /** Records of every administration of a country (ISO3) at a level; date "YYYY-MM-DD" or the latest. */
  async covidCountry(iso3: string, admin: string, date?: string, o: CallOptions = {}): Promise<Schemas["CovidRecords"]> {
    const query = { country: iso3, admin, date } as never;
    return this.ok("country2data", await this.raw.GET("/covidv1/country2data", { params: { query }, signal: o.signal }));
  }

  /** Health data of the administrations at p, from a level up to the country (covidv1/xy2data). */
  async covidAt(p: Point, admin: string, date?: string, o: CallOptions = {}): Promise<Schemas["CovidHierarchyResponse"]> {
    checkPoint(p);
    const query = { x: p.lon, y: p.lat, admin, date } as never;
    return this.ok("xy2data", await this.raw.GET("/covidv1/xy2data", { params: { query }, signal: o.signal }));
  }

  /** The web-mercator tile of zoom (14..20) holding p, with its health data (covidv1/xy2tile). */
  async covidTileAt(p: Point, zoom: number, o: CallOptions = {}): Promise<Schemas["CovidTileCollection"]> {
    checkPoint(p);
    const query = { x: p.lon, y: p.lat, zoom };
    return this.ok("xy2tile", await this.raw.GET("/covidv1/xy2tile", { params: { query }, signal: o.signal }));
  }

  /** The tile x, y of zoom (covidv1/index2tile). */
  async covidTile(x: number, y: number, zoom?: number, o: CallOptions = {}): Promise<Schemas["CovidTileCollection"]> {
    return this.ok("index2tile", await this.raw.GET("/covidv1/index2tile", { params: { query: { x, y, zoom } }, signal: o.signal }));
  }

  /** A token that opens map tiles for an hour in the key's name (tilesv1/token). */
  async tileToken(o: CallOptions = {}): Promise<Schemas["TileToken"]> {
    return this.ok("tile-token", await this.raw.POST("/tilesv1/token", { signal: o.signal }));
  }

  /** The PNG of map tile z/x/y (tilesv1). */
  async tile(z: number, x: number, y: number, o: CallOptions = {}): Promise<Uint8Array> {
    const a = await this.raw.GET("/tilesv1/{z}/{x}/{y}.png", { params: { path: { z, x, y } }, parseAs: "arrayBuffer", signal: o.signal });
    if (a.response.status !== 200 || a.data === undefined) this.fail("tile", a.response, a.error);
    return new Uint8Array(a.data as ArrayBuffer);
  }

  /** Applies for a free-trial key (keysv1/trial; no key needed); the key is shown only now. */
  async trial(req: Schemas["TrialRequest"], o: CallOptions = {}): Promise<Schemas["TrialIssued"]> {
    const a = await this.raw.POST("/keysv1/trial", { body: req, signal: o.signal });
    if (a.response.status !== 201 || a.data === undefined) this.fail("trial", a.response, a.error);
    return a.data as Schemas["TrialIssued"];
  }

  /** Starts the purchase of a plan (keysv1/checkout; no key needed). */
  async checkout(req: Schemas["CheckoutRequest"], o: CallOptions = {}): Promise<Schemas["CheckoutStarted"]> {
    return this.ok("checkout", await this.raw.POST("/keysv1/checkout", { body: req, signal: o.signal }));
  }

  /** The key's usage statement of a month ("2026-11"; default the current one) (keysv1/usage). */
  async usage(month?: string, o: CallOptions = {}): Promise<Schemas["Statement"]> {
    const a = await this.raw.GET("/keysv1/usage", { params: { query: { month } }, signal: o.signal });
    return this.ok("usage", a) as Schemas["Statement"]; // JSON: no format=csv asked
  }

  /** Orders the matrix from every origin to every destination (tdmv1/order); returns the job's uuid. */
  async orderMatrix(origins: Point[], destinations: Point[], o: MatrixOptions = {}): Promise<string> {
    origins.forEach(checkPoint);
    destinations.forEach(checkPoint);
    const body: Schemas["TDMOrder"] = {
      origin_addresses: origins.map(lonLat),
      destination_addresses: destinations.map(lonLat),
    };
    if (o.result) body.result = o.result;
    if (o.routing) body.routing = o.routing;
    return this.ok("tdm-order", await this.raw.POST("/tdmv1/order", { body, signal: o.signal })).uuid;
  }

  /**
   * Fetches a job once (tdmv1/fetch), the server holding the request up to
   * waitSeconds (at most 30) for the job to end: its status, and its
   * result when Finished. Failed, Cancelled and expired (410) jobs throw
   * a JobError.
   */
  async fetchMatrix(
    uuid: string,
    waitSeconds = 0,
    o: CallOptions = {},
  ): Promise<{ status: Schemas["JobStatus"]; result?: MatrixResult }> {
    const body: Schemas["JobRequest"] = { uuid };
    if (waitSeconds > 0) body.wait = Math.min(waitSeconds, 30);
    const a = await this.raw.POST("/tdmv1/fetch", { body, signal: o.signal });
    if (a.response.status === 410) throw new JobError(uuid, "Expired", (a.error as { message?: string })?.message);
    // JSON (the client asks for no other format of the result).
    const v = this.ok("tdm-fetch", a) as Schemas["JobStatus"] | MatrixResult;
    if (v.status === "Finished") {
      const result = v as MatrixResult;
      const status = { uuid: result.uuid, status: "Finished", progress: { rows_done: 0, rows_total: 0 } };
      return { status: status as unknown as Schemas["JobStatus"], result };
    }
    const st = v as Schemas["JobStatus"];
    if (st.status === "Failed" || st.status === "Cancelled") throw new JobError(uuid, st.status, st.message);
    return { status: st };
  }

  /** Cancels a Queued or Processing job (tdmv1/cancel). */
  async cancelMatrix(uuid: string, o: CallOptions = {}): Promise<void> {
    this.ok("tdm-cancel", await this.raw.POST("/tdmv1/cancel", { body: { uuid }, signal: o.signal }));
  }

  /**
   * Orders the matrix, waits for it (long-polling tdmv1/fetch) and returns
   * it. A job that Failed, was Cancelled or expired throws a JobError. When
   * the signal aborts first, the job is cancelled on the server (unless
   * keepOnAbort) and the abort reason is thrown.
   */
  async matrix(origins: Point[], destinations: Point[], o: MatrixOptions = {}): Promise<MatrixResult> {
    const uuid = await this.orderMatrix(origins, destinations, o);
    o.onOrder?.(uuid);
    const wait = o.waitSeconds && o.waitSeconds > 0 ? o.waitSeconds : 20;
    for (;;) {
      let got: Awaited<ReturnType<GeosvcClient["fetchMatrix"]>>;
      try {
        got = await this.fetchMatrix(uuid, wait, { signal: o.signal });
      } catch (e) {
        if (o.signal?.aborted) {
          if (!o.keepOnAbort) await this.cancelMatrix(uuid, { signal: AbortSignal.timeout(5000) }).catch(() => {});
          throw abortError(o.signal);
        }
        throw e;
      }
      if (got.result) return got.result;
      o.onProgress?.(got.status);
    }
  }

  /**
   * The time zone and local area at p at an instant (timezonesv1 with timestamp): the
   * zone's data of that instant's year, with raw_offset_s, dst_offset_s, time_zone_id
   * and abbreviation at the instant (their sum is the UTC offset then).
   */
  async timeZoneAt(p: Point, at: Date, o: CallOptions = {}): Promise<TimeZone> {
    checkPoint(p);
    const timestamp = String(Math.floor(at.getTime() / 1000));
    const a = await this.raw.GET("/timezonesv1/xy2tzdata", { params: { query: { x: p.lon, y: p.lat, timestamp } }, signal: o.signal });
    const v = this.ok("xy2tzdata", a);
    return { ...v, name: a.response.headers.get("x-time-zone") ?? "" };
  }

  /**
   * Every administrative area at p, admin0 (the country) first, in one request
   * (adminv1/xy2hierarchy); geometry adds each area's polygon containing p.
   */
  async adminHierarchy(p: Point, o: CallOptions & { geometry?: boolean } = {}): Promise<Schemas["AdminHierarchyFeature"][]> {
    checkPoint(p);
    const query = { x: p.lon, y: p.lat, geometry: o.geometry ? ("true" as const) : undefined };
    return this.ok("xy2hierarchy", await this.raw.GET("/adminv1/xy2hierarchy", { params: { query }, signal: o.signal })).features;
  }

  /**
   * Geocodes up to 1,000 addresses in one request (POST /geocoderv1/batch): one response
   * per address, in order; an invalid address gets its own INVALID_REQUEST response.
   */
  async geocodeBatch(addresses: string[], o: CallOptions = {}): Promise<Schemas["GeocodeResponse"][]> {
    const a = await this.raw.POST("/geocoderv1/batch", { body: { addresses }, signal: o.signal });
    return (this.ok("geocode-batch", a) as Schemas["GeocodeBatchAnswer"]).results;
  }

  /**
   * Reverse-geocodes up to 1,000 points in one request (POST /geocoderv1/batch): one
   * response per point, in order; a point out of range gets its own INVALID_REQUEST.
   */
  async reverseGeocodeBatch(points: Point[], o: CallOptions = {}): Promise<Schemas["GeocodeResponse"][]> {
    const reverse = points.map((p) => ({ x: p.lon, y: p.lat }));
    const a = await this.raw.POST("/geocoderv1/batch", { body: { reverse }, signal: o.signal });
    return (this.ok("geocode-batch", a) as Schemas["GeocodeBatchAnswer"]).results;
  }

  /**
   * Looks up to 10,000 points in the layers named (POST /lookupsv1/batch): one result per
   * point, in order, status 200 with each layer's answer as its GET endpoint gives it, or
   * 400 with a message for an invalid point; at is the instant of the timezone layer.
   */
  async lookupsBatch(
    points: Point[],
    layers: Schemas["LookupsBatch"]["layers"],
    o: CallOptions & { at?: Date } = {},
  ): Promise<Schemas["LookupsResult"][]> {
    const body: Schemas["LookupsBatch"] = { points: points.map((p) => ({ x: p.lon, y: p.lat })), layers };
    if (o.at) body.timestamp = String(Math.floor(o.at.getTime() / 1000));
    const a = await this.raw.POST("/lookupsv1/batch", { body, signal: o.signal });
    return (this.ok("lookups-batch", a) as Schemas["LookupsBatchAnswer"]).results;
  }
}

/** geocoderv1/autocomplete's optional parameters. */
export interface AutocompleteOptions extends CallOptions {
  /** Completions nearer this point rank higher (the map's centre). */
  focus?: Point;
  /** A box, "lat,lng|lat,lng" (latitude first, as the geocoder's). */
  bounds?: string;
  /** "bias" (the default) or "restrict" (only completions inside bounds). */
  boundsMode?: "bias" | "restrict";
  /** The most completions, 1 to 20 (the server's default 10). */
  limit?: number;
  /** Keep these kinds: "address", "street", "place", "poi", "postcode". */
  layers?: ("address" | "street" | "place" | "poi" | "postcode")[];
  /** BCP 47 tags, preferred first ("fr", "de-CH,de"): names in these languages where the data has them. */
  lang?: string;
}

export interface GeosvcClient {
  /**
   * The completions of what a search box holds so far, best first
   * (geocoderv1/autocomplete), in the geocoder's answer shape. Bad input
   * throws an ApiError with status 400 and geocoderStatus INVALID_REQUEST.
   */
  autocomplete(text: string, o?: AutocompleteOptions): Promise<Schemas["GeocodeResponse"]>;
}

GeosvcClient.prototype.autocomplete = async function (
  this: GeosvcClient,
  text: string,
  o: AutocompleteOptions = {},
): Promise<Schemas["GeocodeResponse"]> {
  if (o.focus) checkPoint(o.focus);
  const query = {
    text,
    focus: o.focus ? `${o.focus.lon},${o.focus.lat}` : undefined,
    bounds: o.bounds,
    bounds_mode: o.boundsMode,
    limit: o.limit,
    layers: o.layers?.join(","),
    lang: o.lang,
  };
  const a = await this.raw.GET("/geocoderv1/autocomplete", { params: { query }, signal: o.signal });
  const v = a.data ?? (a.error as Schemas["GeocodeResponse"] | undefined);
  if (a.response.status === 403) throw new ForbiddenError("autocomplete", a.error, a.response.headers);
  if (v && typeof v === "object" && "status" in v && v.status !== "OK" && v.status !== "ZERO_RESULTS") {
    throw new ApiError("autocomplete", a.response.status, { message: v.error_message ?? "" }, a.response.headers, v.status);
  }
  if (a.response.status !== 200 || !a.data) throw new ApiError("autocomplete", a.response.status, a.error, a.response.headers);
  return a.data;
};
