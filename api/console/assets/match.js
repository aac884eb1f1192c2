// geosvc web console: map matching (matchv1). Drop a GPX or GeoJSON trace
// on the map (or choose the file): its points are sent to
// POST /matchv1/match with the profile chosen for routes, and the
// matchings are drawn over the trace, with their length, time, confidence
// and roads. Loaded after console.js, whose state (window.geosvcConsole)
// holds the map and the key.
(function () {
  'use strict';

  const MAX_POINTS = 5000; // matchv1's limit
  const $ = (id) => document.getElementById(id);
  const layer = L.layerGroup();

  // parseGPX reads the track points (else route points, else waypoints)
  // of a GPX document: {lon, lat, time?}.
  function parseGPX(text) {
    const doc = new DOMParser().parseFromString(text, 'application/xml');
    if (doc.getElementsByTagName('parsererror').length) throw new Error('not a GPX (XML) file');
    for (const tag of ['trkpt', 'rtept', 'wpt']) {
      const els = Array.from(doc.getElementsByTagName(tag));
      if (!els.length) continue;
      return els.map((el) => {
        const p = { lon: Number(el.getAttribute('lon')), lat: Number(el.getAttribute('lat')) };
        const t = el.getElementsByTagName('time')[0];
        if (t && t.textContent.trim()) p.time = t.textContent.trim();
        return p;
      });
    }
    throw new Error('the GPX has no trkpt, rtept or wpt');
  }

  // parseGeoJSON reads the positions of a LineString or MultiLineString
  // (or of Points, in order), in a geometry, Feature or FeatureCollection;
  // times from a feature's properties.coordTimes or .times when given.
  function parseGeoJSON(text) {
    const g = JSON.parse(text);
    const out = [];
    const add = (coords, times) => coords.forEach((c, i) => {
      const p = { lon: Number(c[0]), lat: Number(c[1]) };
      if (times && times[i] !== undefined && times[i] !== null) p.time = times[i];
      out.push(p);
    });
    const walk = (o, props) => {
      if (!o) return;
      const times = props && (props.coordTimes || props.times);
      switch (o.type) {
        case 'FeatureCollection': o.features.forEach((f) => walk(f, null)); break;
        case 'Feature': walk(o.geometry, o.properties || {}); break;
        case 'LineString': add(o.coordinates, times); break;
        case 'MultiLineString': o.coordinates.forEach((line, k) => add(line, times && times[k])); break;
        case 'Point': add([o.coordinates], props && props.time !== undefined ? [props.time] : null); break;
        default: break;
      }
    };
    walk(g, null);
    if (!out.length) throw new Error('the GeoJSON has no LineString, MultiLineString or Point');
    return out;
  }

  function parseTrace(name, text) {
    const t = text.trimStart();
    if (t.startsWith('{')) return parseGeoJSON(t);
    if (t.startsWith('<')) return parseGPX(t);
    throw new Error(name + ' is neither GPX nor GeoJSON');
  }

  function say(msg) { $('match-summary').textContent = msg; }

  async function matchFile(file) {
    const st = window.geosvcConsole;
    layer.clearLayers();
    $('match-roads').textContent = '';
    let points;
    try {
      points = parseTrace(file.name, await file.text());
    } catch (e) {
      say('Cannot read ' + file.name + ': ' + e.message);
      return;
    }
    if (points.length < 2 || points.length > MAX_POINTS) {
      say(file.name + ' has ' + points.length + ' points: matchv1 takes 2 to ' + MAX_POINTS);
      return;
    }
    for (const p of points) L.circleMarker([p.lat, p.lon], { radius: 2, color: '#888' }).addTo(layer);
    layer.addTo(st.map);
    st.map.fitBounds(L.latLngBounds(points.map((p) => [p.lat, p.lon])), { maxZoom: 16 });
    const body = { points };
    const profile = $('profile') && $('profile').value;
    if (profile) body.profile = profile;
    say('Matching ' + points.length + ' points…');
    st.requests.push({ method: 'POST', url: '/matchv1/match', body: JSON.stringify(body) });
    let ans;
    try {
      const res = await fetch('/matchv1/match', { method: 'POST', headers: { 'x-api-key': st.key, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      ans = await res.json();
      if (!res.ok) throw new Error((ans && ans.message) || res.statusText);
    } catch (e) {
      say('No match: ' + e.message);
      return;
    }
    st.lastMatch = ans;
    let dist = 0, dur = 0;
    const roads = [];
    for (const m of ans.matchings) {
      dist += m.distance;
      dur += m.duration;
      L.geoJSON(m.geometry, { style: { color: '#d6213a', weight: 5, opacity: 0.8 } }).addTo(layer);
      for (const l of m.legs) {
        for (const r of l.roads) {
          const name = r.name || '(unnamed road)';
          if (roads.length && roads[roads.length - 1].name === name) roads[roads.length - 1].distance += r.distance;
          else roads.push({ name, distance: r.distance });
        }
      }
    }
    const unmatched = ans.tracepoints.filter((t) => t === null).length;
    const conf = ans.matchings.map((m) => m.confidence.toFixed(2)).join(', ');
    say((dist / 1000).toFixed(1) + ' km, ' + Math.round(dur / 60) + ' min in ' + ans.matchings.length + ' matching(s) (confidence ' + conf + '); ' + unmatched + ' of ' + points.length + ' points unmatched');
    const ol = $('match-roads');
    for (const r of roads) {
      const li = document.createElement('li');
      li.textContent = r.name + ', ' + Math.round(r.distance) + ' m';
      ol.appendChild(li);
    }
  }

  function start() {
    const st = window.geosvcConsole;
    if (!st || !st.map) { setTimeout(start, 200); return; }
    const input = $('match-file');
    input.addEventListener('change', () => { if (input.files[0]) matchFile(input.files[0]); });
    $('match-clear').addEventListener('click', () => { layer.clearLayers(); say('Drop a GPX or GeoJSON trace on the map, or choose a file.'); $('match-roads').textContent = ''; });
    const box = st.map.getContainer();
    box.addEventListener('dragover', (e) => { e.preventDefault(); });
    box.addEventListener('drop', (e) => {
      e.preventDefault();
      const f = e.dataTransfer && e.dataTransfer.files[0];
      if (f) matchFile(f);
    });
  }

  window.geosvcMatch = { parseGPX, parseGeoJSON, matchFile };
  start();
})();
