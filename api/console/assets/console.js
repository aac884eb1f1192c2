// geosvc web console: a map on geosvc's own vector tiles (MapLibre GL; its
// raster tiles as the fallback), and the REST interfaces
// behind it. It uses the public REST API only, with the key the user gives
// (kept in localStorage; a #key=... fragment pre-fills it).
//
// Mind the specification's axis quirks: zip4v1 takes x = latitude and
// y = longitude; tdmv1 and routev1 points are "lon,lat"; the other lookups
// take x = longitude, y = latitude.
(function () {
  'use strict';

  const KEY_STORE = 'geosvc.key';
  const $ = (id) => document.getElementById(id);

  const state = {
    key: '',
    token: '',
    tokenTimer: 0,
    map: null,
    tiles: null, // the raster base map (Leaflet tile layer)
    vector: null, // the vector base map (MapLibre GL), when WebGL works
    base: '', // the base map shown: 'vector' or 'raster'
    mode: 'info',
    search: L.layerGroup(),
    info: L.layerGroup(),
    route: L.layerGroup(),
    routeFrom: null,
    lastRoute: null, // routev1's last answer
    isochrone: L.layerGroup(),
    matrix: L.layerGroup(),
    matrixPoints: [],
    covid: L.layerGroup(),
    covidTiles: new Map(), // "z/x/y" -> true once drawn or asked for
    covidSeq: 0,
    options: null, // options.js: profile, truck, areas to avoid
    requests: [], // the last 100 API calls: {method, url, body}
  };
  // For tests and debugging in the browser's console.
  window.geosvcConsole = state;

  class APIError extends Error {
    constructor(status, message) {
      super(message);
      this.status = status;
    }
  }

  // api calls a REST interface with the key and answers the parsed JSON
  // body; a non-2xx answer throws an APIError with the server's message.
  async function api(path, init) {
    init = init || {};
    const headers = Object.assign({ 'x-api-key': state.key }, init.headers || {});
    if (init.body !== undefined) headers['content-type'] = 'application/json';
    state.requests.push({ method: init.method || 'GET', url: path, body: init.body === undefined ? null : init.body });
    if (state.requests.length > 100) state.requests.shift();
    const res = await fetch(path, Object.assign({}, init, { headers }));
    let body = null;
    const text = await res.text();
    if (text) {
      try { body = JSON.parse(text); } catch (e) { body = { message: text }; }
    }
    if (!res.ok) {
      if (res.status === 403) askKey('The server refused the key (403 Forbidden).');
      throw new APIError(res.status, (body && body.message) || res.statusText);
    }
    return body;
  }

  const q = (params) => new URLSearchParams(params).toString();
  const fmt = (v, d) => Number(v).toFixed(d === undefined ? 5 : d);
  const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]));

  function status(msg) { $('status').textContent = msg || ''; }

  // ---- the key ----

  function keyFromFragment() {
    const m = /(?:^|[#&])key=([^&]+)/.exec(location.hash);
    if (!m) return '';
    // Take the key out of the address bar (and of the history).
    history.replaceState(null, '', location.pathname + location.search);
    return decodeURIComponent(m[1]);
  }

  function askKey(err) {
    $('key-error').textContent = err || '';
    $('key-input').value = state.key;
    const d = $('key-dialog');
    if (!d.open) d.showModal();
  }

  async function useKey(key) {
    state.key = key.trim();
    localStorage.setItem(KEY_STORE, state.key);
    await refreshToken();
  }

  // ---- tiles ----

  // refreshToken asks for a tile token and renews it five minutes before it
  // expires; tiles of the map carry it, since an <img> cannot send a key.
  async function refreshToken() {
    clearTimeout(state.tokenTimer);
    const t = await api('/tilesv1/token', { method: 'POST' });
    state.token = t.token;
    if (!state.tiles) {
      // The raster tiles: the fallback base map (a browser without
      // WebGL, or chosen in the layer control).
      state.tiles = L.tileLayer('/tilesv1/{z}/{x}/{y}.png?token={token}', {
        token: () => state.token,
        maxZoom: 20,
        tileSize: 256,
        attribution: state.attribution || '',
      });
      const bases = { 'Raster tiles (PNG)': state.tiles };
      if (webgl()) {
        // The vector base map: MapLibre GL JS on geosvc's vector tiles,
        // style, fonts and sprite (/tilesv1/style.json), drawn as a
        // Leaflet layer (MapLibre's maplibre-gl-leaflet) under the
        // console's overlays. Tile URLs carry the current token.
        maplibregl.setWorkerUrl('/console/vendor/maplibre-gl/maplibre-gl-csp-worker.js');
        state.vector = L.maplibreGL({
          style: '/tilesv1/style.json?token=' + encodeURIComponent(state.token),
          attributionControl: false,
          transformRequest: (url) => (url.includes('.mvt?token=') ? { url: url.replace(/token=[^&]*/, 'token=' + encodeURIComponent(state.token)) } : { url }),
        });
        state.vector.getAttribution = () => state.attribution || ''; // as the raster tiles' (the GL map draws none)
        bases['Vector tiles (MapLibre GL)'] = state.vector;
        state.base = 'vector';
        state.vector.addTo(state.map);
      } else {
        state.base = 'raster';
        state.tiles.addTo(state.map);
      }
      L.control.layers(bases, null, { position: 'topright' }).addTo(state.map);
      state.map.on('baselayerchange', (e) => { state.base = e.layer === state.tiles ? 'raster' : 'vector'; });
    } else {
      state.tiles.redraw();
    }
    const ms = Math.max(60e3, new Date(t.expires_at).getTime() - Date.now() - 5 * 60e3);
    state.tokenTimer = setTimeout(() => refreshToken().catch((e) => status('tile token: ' + e.message)), ms);
  }

  // webgl reports whether the browser can draw the vector base map.
  function webgl() {
    try {
      const c = document.createElement('canvas');
      return typeof maplibregl !== 'undefined' && !!(c.getContext('webgl2') || c.getContext('webgl'));
    } catch (e) {
      return false;
    }
  }

  // ---- search (geocoderv1) ----

  async function search(text) {
    state.search.clearLayers();
    const list = $('search-results');
    list.textContent = '';
    if (!text.trim()) return;
    const body = await api('/geocoderv1/geocoder?' + q({ address: text }));
    if (body.status === 'ZERO_RESULTS') { status('nothing found for "' + text + '"'); return; }
    if (body.status !== 'OK') { status(body.status + (body.error_message ? ': ' + body.error_message : '')); return; }
    status('');
    const bounds = L.latLngBounds([]);
    body.results.forEach((r, i) => {
      const loc = r.geometry.location;
      const ll = L.latLng(loc.lat, loc.lng);
      const m = L.marker(ll, { title: r.formatted_address }).bindPopup(esc(r.formatted_address) + '<br>' + esc(r.types.join(', ')));
      m.result = r;
      state.search.addLayer(m);
      bounds.extend(ll);
      const li = document.createElement('li');
      li.textContent = r.formatted_address;
      li.dataset.lat = loc.lat;
      li.dataset.lon = loc.lng;
      li.addEventListener('click', () => { state.map.setView(ll, Math.max(state.map.getZoom(), 15)); m.openPopup(); });
      list.appendChild(li);
      if (i === 0) {
        const vp = r.geometry.viewport;
        if (vp) state.map.fitBounds([[vp.southwest.lat, vp.southwest.lng], [vp.northeast.lat, vp.northeast.lng]], { maxZoom: 16 });
        else state.map.setView(ll, 15);
      }
    });
  }

  // ---- a point: reverse geocoding, time zone, areas, ZIP+4 ----

  async function describe(ll) {
    state.info.clearLayers();
    L.circleMarker(ll, { radius: 6, color: '#c00' }).addTo(state.info);
    $('info-position').textContent = fmt(ll.lat) + ', ' + fmt(ll.lng);
    for (const id of ['info-address', 'info-tz', 'info-zip', 'info-admin']) $(id).textContent = '…';
    const xy = { x: ll.lng, y: ll.lat };
    const put = (id, p, show) => p.then((b) => { $(id).textContent = show(b); })
      .catch((e) => { $(id).textContent = e.status === 404 ? '—' : 'error: ' + e.message; });
    await Promise.all([
      put('info-address', api('/geocoderv1/rev-geocoder?' + q(xy)), (b) =>
        b.status === 'OK' ? b.results[0].formatted_address : b.status),
      put('info-tz', api('/timezonesv1/xy2tzdata?' + q(xy)), (b) => {
        const a = b.local_area;
        if (a) {
          return a.time_zone + ' ' + a.time_zone_local_name + ' (' + a.time_zone_local_abbreviation + ')' +
            (a.has_daylight_saving_time ? '; summer: ' + a.dst_time_zone_local_name : '') + ' — ' + a.local_boundary_name;
        }
        return b.time_zone ? b.time_zone.time_zone : '—';
      }),
      // zip4v1: x is the latitude, y the longitude.
      put('info-zip', api('/zip4v1/xy2zip?' + q({ x: ll.lat, y: ll.lng })), (b) => {
        if (!b.features.length) return 'none here';
        const p = b.features[0].properties;
        return p.zip + '-' + p.zip9.slice(5) + (p.street ? ' (' + p.street + ')' : '');
      }),
      put('info-admin', adminAreas(xy), (names) => names.join(' › ') || 'none'),
    ]);
  }

  // adminAreas answers the names of the administrative areas holding a
  // point, country first: every level in one request (adminv1/xy2hierarchy).
  async function adminAreas(xy) {
    const b = await api('/adminv1/xy2hierarchy?' + q(xy));
    return b.features.map((f) => f.properties.name);
  }

  // ---- routes (routev1) ----

  async function routeClick(ll) {
    if (!state.routeFrom) {
      state.route.clearLayers();
      state.routeFrom = ll;
      L.circleMarker(ll, { radius: 7, color: '#070', fillOpacity: 0.8 }).addTo(state.route);
      $('route-summary').textContent = 'Now click the destination.';
      $('route-steps').textContent = '';
      return;
    }
    const from = state.routeFrom;
    state.routeFrom = null;
    L.circleMarker(ll, { radius: 7, color: '#a00', fillOpacity: 0.8 }).addTo(state.route);
    $('route-summary').textContent = 'Planning…';
    try {
      const params = Object.assign({ from: from.lng + ',' + from.lat, to: ll.lng + ',' + ll.lat }, state.options.routeParams());
      const r = await api('/routev1/route?' + q(params));
      state.lastRoute = r;
      L.geoJSON(r.geometry, { style: { color: '#2155d6', weight: 5, opacity: 0.8 } }).addTo(state.route);
      $('route-summary').textContent = (r.distance / 1000).toFixed(1) + ' km, ' + duration(r.duration) + ' (' + r.routing + ')' +
        (r.departure_time ? ', leaving ' + r.departure_time + ' (' + r.time_zone + ')' + (r.speed_version ? ', speed data ' + r.speed_version : '') : '');
      const ol = $('route-steps');
      ol.textContent = '';
      for (const s of r.steps) {
        const li = document.createElement('li');
        li.textContent = s.maneuver + (s.street ? ' onto ' + s.street : '') + (s.distance ? ', ' + Math.round(s.distance) + ' m' : '');
        ol.appendChild(li);
      }
    } catch (e) {
      $('route-summary').textContent = 'No route: ' + e.message;
    }
  }

  function duration(s) {
    const h = Math.floor(s / 3600), m = Math.round((s % 3600) / 60);
    return h ? h + ' h ' + m + ' min' : m + ' min';
  }

  // ---- isochrones (isochronev1) ----

  // isochroneColours: the largest contour first (the answer's order),
  // drawn under the smaller ones.
  const isochroneColours = ['#d62728', '#ff7f0e', '#bcbd22', '#2ca02c', '#1f77b4'];

  async function isochroneClick(ll) {
    state.isochrone.clearLayers();
    L.circleMarker(ll, { radius: 7, color: '#070', fillOpacity: 0.8 }).addTo(state.isochrone);
    $('isochrone-summary').textContent = 'Searching…';
    const params = Object.assign({ x: ll.lng, y: ll.lat, contours: $('isochrone-contours').value.trim() }, state.options.routeParams());
    if ($('isochrone-reverse').checked) params.reverse = 'true';
    try {
      const fc = await api('/isochronev1/isochrone?' + q(params));
      const n = fc.features.length;
      fc.features.forEach((f, i) => {
        if (!f.geometry) return;
        const colour = isochroneColours[(n - 1 - i) % isochroneColours.length];
        L.geoJSON(f, { style: { color: colour, weight: 1, fillColor: colour, fillOpacity: 0.25 } })
          .bindTooltip(f.properties.contour + ' min').addTo(state.isochrone);
      });
      $('isochrone-summary').textContent = fc.features.map((f) => f.properties.contour).reverse().join(', ') + ' min' +
        (params.reverse ? ' towards the point' : ' from the point');
    } catch (e) {
      $('isochrone-summary').textContent = 'No isochrone: ' + e.message;
    }
  }

  // ---- matrix (tdmv1 with long-poll fetch) ----

  function matrixText() {
    return state.matrixPoints.map((p) => fmt(p.lng) + ',' + fmt(p.lat)).join('\n');
  }

  function drawMatrixPoints() {
    state.matrix.clearLayers();
    state.matrixPoints.forEach((p, i) => {
      L.circleMarker(p, { radius: 6, color: '#603' }).addTo(state.matrix)
        .bindTooltip(String(i + 1), { permanent: true, direction: 'right', className: 'point-label' });
    });
  }

  function readMatrixPoints() {
    const pts = [];
    for (const line of $('matrix-points').value.split('\n')) {
      const t = line.trim();
      if (!t) continue;
      const m = /^(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)$/.exec(t);
      if (!m) throw new Error('"' + t + '" is not lon,lat');
      pts.push(L.latLng(Number(m[2]), Number(m[1])));
    }
    return pts;
  }

  async function orderMatrix() {
    const bar = $('matrix-progress');
    const st = $('matrix-status');
    $('heatmap-box').textContent = '';
    bar.hidden = true;
    let pts;
    try { pts = readMatrixPoints(); } catch (e) { st.textContent = e.message; return; }
    if (pts.length < 2) { st.textContent = 'Give two points at least.'; return; }
    state.matrixPoints = pts;
    drawMatrixPoints();
    const addrs = pts.map((p) => p.lng + ',' + p.lat);
    const order = await api('/tdmv1/order', {
      method: 'POST',
      body: JSON.stringify(Object.assign({ result: ['duration', 'distance'], origin_addresses: addrs, destination_addresses: addrs },
        state.options.orderFields())),
    });
    const profile = state.options.profile();
    bar.hidden = false;
    bar.max = pts.length;
    bar.value = 0;
    st.textContent = 'Queued ' + order.uuid;
    // Long-poll: the fetch answers as soon as the job ends, or after two
    // seconds with its progress.
    for (;;) {
      const job = await api('/tdmv1/fetch', { method: 'POST', body: JSON.stringify({ uuid: order.uuid, wait: 2 }) });
      if (job.progress) { bar.max = job.progress.rows_total; bar.value = job.progress.rows_done; }
      st.textContent = job.status + (job.message ? ': ' + job.message : '');
      if (job.status === 'Finished') { bar.value = bar.max; heatmap(job, profile); return; }
      if (job.status !== 'Queued' && job.status !== 'Processing') return;
    }
  }

  // heatmap draws the duration matrix as a table of coloured cells, green
  // (shortest) to red (longest); an unreachable cell is grey.
  function heatmap(job, profile) {
    const d = job.duration;
    let lo = Infinity, hi = -Infinity;
    for (const row of d) for (const v of row) if (v !== null) { lo = Math.min(lo, v); hi = Math.max(hi, v); }
    const t = document.createElement('table');
    t.id = 'heatmap';
    const head = t.createTHead().insertRow();
    head.appendChild(document.createElement('th'));
    d[0].forEach((_, j) => { const th = document.createElement('th'); th.textContent = j + 1; head.appendChild(th); });
    const body = t.createTBody();
    d.forEach((row, i) => {
      const tr = body.insertRow();
      const th = document.createElement('th');
      th.textContent = i + 1;
      tr.appendChild(th);
      row.forEach((v, j) => {
        const td = tr.insertCell();
        td.className = 'cell';
        if (v === null) {
          td.classList.add('none');
          td.textContent = '–';
          td.title = (i + 1) + ' → ' + (j + 1) + ': no route';
          return;
        }
        const f = hi > lo ? (v - lo) / (hi - lo) : 0;
        td.style.background = 'hsl(' + Math.round(120 * (1 - f)) + ', 75%, 60%)';
        td.textContent = Math.round(v / 60);
        td.dataset.seconds = v;
        td.title = (i + 1) + ' → ' + (j + 1) + ': ' + duration(v) + ', ' + (job.distance[i][j] / 1000).toFixed(1) + ' km';
      });
    });
    const box = $('heatmap-box');
    box.textContent = '';
    box.appendChild(t);
    const legend = document.createElement('p');
    legend.className = 'legend';
    legend.textContent = 'minutes by ' + profile + ', row to column; green ' + duration(lo) + ' … red ' + duration(hi);
    box.appendChild(legend);
  }

  // ---- health alert zones (covidv1 tiles of the view) ----

  const COVID_MIN_ZOOM = 13;
  const COVID_MAX_TILES = 48;

  function lon2tile(lon, z) { return Math.floor((lon + 180) / 360 * (1 << z)); }
  function lat2tile(lat, z) {
    const r = lat * Math.PI / 180;
    return Math.floor((1 - Math.log(Math.tan(r) + 1 / Math.cos(r)) / Math.PI) / 2 * (1 << z));
  }

  function riskColor(score) {
    const f = Math.min(1, Math.max(0, (Number(score) - 1) / 99));
    return 'hsl(' + Math.round(60 * (1 - f)) + ', 90%, 50%)';
  }

  async function drawCovid() {
    const seq = ++state.covidSeq;
    if (!$('covid-toggle').checked) { state.covid.clearLayers(); state.covidTiles.clear(); return; }
    const zoom = state.map.getZoom();
    if (zoom < COVID_MIN_ZOOM) { status('Zoom in to ' + COVID_MIN_ZOOM + ' or more for health alert zones.'); return; }
    const z = Math.min(20, Math.max(14, zoom));
    const b = state.map.getBounds();
    const x0 = lon2tile(b.getWest(), z), x1 = lon2tile(b.getEast(), z);
    const y0 = lat2tile(b.getNorth(), z), y1 = lat2tile(b.getSouth(), z);
    const todo = [];
    for (let x = x0; x <= x1; x++) {
      for (let y = y0; y <= y1; y++) {
        const id = z + '/' + x + '/' + y;
        if (!state.covidTiles.has(id)) todo.push([x, y, id]);
      }
    }
    if (todo.length > COVID_MAX_TILES) { status('Zoom in for health alert zones (' + todo.length + ' tiles in view).'); return; }
    status('');
    // Four requests at a time.
    const next = async () => {
      while (todo.length && seq === state.covidSeq) {
        const [x, y, id] = todo.shift();
        state.covidTiles.set(id, true);
        try {
          const fc = await api('/covidv1/index2tile?' + q({ x, y, zoom: z }));
          L.geoJSON(fc, {
            style: (f) => {
              const s = f.properties.covid_risk_score;
              return s === undefined ? { stroke: false, fillOpacity: 0 } : { color: riskColor(s), weight: 0.5, fillOpacity: 0.35 };
            },
            onEachFeature: (f, layer) => {
              const p0 = f.properties.hierarchy_data && f.properties.hierarchy_data.p0;
              if (p0) layer.bindTooltip(esc(p0.name) + ': risk ' + esc(f.properties.covid_risk_score || p0.covid_risk_score || '?'));
            },
          }).addTo(state.covid);
        } catch (e) {
          state.covidTiles.delete(id);
          status('covidv1: ' + e.message);
          return;
        }
      }
    };
    await Promise.all([next(), next(), next(), next()]);
  }

  // ---- wiring ----

  function setMode(mode) {
    state.mode = mode;
    $('info-section').hidden = mode !== 'info';
    $('route-section').hidden = mode !== 'route';
    $('matrix-section').hidden = mode !== 'matrix';
    $('isochrone-section').hidden = mode !== 'isochrone';
    $('travel-section').hidden = mode === 'info';
    state.options.setDrawing(mode === 'avoid');
    state.routeFrom = null;
  }

  function onClick(e) {
    const ll = e.latlng.wrap();
    const run = (p) => p.catch((err) => status(err.message));
    if (state.mode === 'info') run(describe(ll));
    else if (state.mode === 'route') run(routeClick(ll));
    else if (state.mode === 'isochrone') run(isochroneClick(ll));
    else if (state.mode === 'avoid') state.options.click(ll);
    else {
      state.matrixPoints.push(ll);
      $('matrix-points').value = matrixText();
      drawMatrixPoints();
    }
  }

  async function start() {
    const map = L.map('map', { worldCopyJump: true });
    state.map = map;
    for (const g of [state.covid, state.search, state.info, state.route, state.isochrone, state.matrix]) g.addTo(map);
    state.options = window.geosvcOptions(map);
    map.on('click', onClick);
    map.on('moveend', () => drawCovid().catch((e) => status(e.message)));

    $('search').addEventListener('submit', (e) => { e.preventDefault(); search($('search-input').value).catch((err) => status(err.message)); });
    document.querySelectorAll('input[name=mode]').forEach((r) => r.addEventListener('change', () => setMode(r.value)));
    $('covid-toggle').addEventListener('change', () => drawCovid().catch((e) => status(e.message)));
    $('matrix-order').addEventListener('click', () => orderMatrix().catch((e) => { $('matrix-status').textContent = e.message; }));
    $('matrix-clear').addEventListener('click', () => { state.matrixPoints = []; $('matrix-points').value = ''; $('heatmap-box').textContent = ''; drawMatrixPoints(); });
    $('change-key').addEventListener('click', () => askKey(''));
    $('key-form').addEventListener('submit', () => {
      useKey($('key-input').value).then(() => status('')).catch((e) => askKey(e.message));
    });

    // The data set: its name, extent and attribution.
    let info = {};
    try { info = await (await fetch('/v1/info')).json(); } catch (e) { status('no /v1/info: ' + e.message); }
    state.attribution = info.attribution || '(c) OpenStreetMap contributors, ODbL';
    const d = info.data;
    state.v1info = info; // /v1/info's answer
    state.options.offer(info);
    // osm_timestamp is absent for an extract without a date.
    if (d) $('dataset').textContent = d.name + (d.osm_timestamp ? ', OSM of ' + String(d.osm_timestamp).slice(0, 10) : '');
    if (d && d.bbox) map.fitBounds([[d.bbox[1], d.bbox[0]], [d.bbox[3], d.bbox[2]]]);
    else map.setView([20, 0], 2);

    const key = keyFromFragment() || localStorage.getItem(KEY_STORE) || '';
    if (!key) { askKey(''); return; }
    try { await useKey(key); } catch (e) { if (e.status !== 403) status(e.message); }
  }

  start().catch((e) => status(e.message));
})();
