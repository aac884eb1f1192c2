// geosvc's vector map: MapLibre GL JS (vendored, served by geosvc) on
// /tilesv1/style.json and geosvc's vector tiles, fonts and sprite. The API
// key comes from the fragment (#key=...&lon=...&lat=...&zoom=...) or from
// the console's stored key; the tiles are opened by a tile token, renewed
// before it expires.
(() => {
  'use strict';
  const params = new URLSearchParams(location.hash.slice(1));
  const key = params.get('key') || localStorage.getItem('geosvc.key') || '';
  const status = (msg) => { document.getElementById('status').textContent = msg; };
  const state = { map: null, token: '' };
  window.geosvcVector = state;

  async function token() {
    const r = await fetch('/tilesv1/token', { method: 'POST', headers: { 'x-api-key': key } });
    if (!r.ok) throw new Error('tile token: HTTP ' + r.status);
    const t = await r.json();
    state.token = t.token;
    const ms = Math.max(60000, new Date(t.expires_at).getTime() - Date.now() - 300000);
    setTimeout(() => token().catch((e) => status(e.message)), ms);
    return t.token;
  }

  async function start() {
    if (!key) {
      status('No API key: open this page as /console/vector.html#key=YOUR_KEY');
      return;
    }
    await token();
    const tj = await (await fetch('/tilesv1/tiles.json')).json();
    const num = (n, d) => (params.has(n) ? Number(params.get(n)) : d);
    maplibregl.setWorkerUrl('/console/vendor/maplibre-gl/maplibre-gl-csp-worker.js');
    state.map = new maplibregl.Map({
      container: 'map',
      style: '/tilesv1/style.json?token=' + encodeURIComponent(state.token),
      center: [num('lon', tj.center[0]), num('lat', tj.center[1])],
      zoom: num('zoom', tj.center[2]),
      // Tiles requested after the token was renewed carry the new one.
      transformRequest: (url) => {
        if (url.includes('.mvt?token=')) return { url: url.replace(/token=[^&]*/, 'token=' + encodeURIComponent(state.token)) };
        return { url };
      },
    });
    state.map.addControl(new maplibregl.NavigationControl());
    state.map.on('error', (e) => status(String(e.error && e.error.message || e.error || e)));
  }
  start().catch((e) => status(e.message));
})();
