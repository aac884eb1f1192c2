// geosvc web console: the options of routes and matrices — the profile
// (car, truck, bicycle, foot: those the bundle has), a truck's dimensions,
// and areas to avoid drawn on the map with plain Leaflet events. console.js
// makes one with window.geosvcOptions(map) and adds its parameters to
// routev1 (routeParams) and tdmv1 orders (orderFields).
//
// What is sent: `profile` unless it is car (the server's default, so that
// a server without profiles keeps answering car routes and matrices);
// `vehicle` with every filled field for a truck only (routev1
// "height_m:4,width_m:2.55,...,hazmat:false,max_speed_kmh:90", tdmv1 the
// same as an object of numbers and a boolean); `avoid_polygons` when an
// area is drawn, a GeoJSON Polygon (one area) or MultiPolygon (several).
(function () {
  'use strict';

  const $ = (id) => document.getElementById(id);
  // The known profiles, in the order the selector lists them.
  const PROFILES = ['car', 'truck', 'bicycle', 'foot'];
  const LABELS = { car: 'car', truck: 'truck (car roads, its dimensions)', bicycle: 'bicycle', foot: 'foot' };
  // avoid_polygons' limit: positions of all rings, closing ones included.
  const MAX_POSITIONS = 2000;
  // A click this close (pixels) to the last corner adds none; this close to
  // the first corner closes the polygon.
  const SAME_PX = 4;
  const CLOSE_PX = 8;

  // offeredProfiles answers the profiles to offer for /v1/info's answer:
  // its `profiles` when it lists them, else car; truck whenever car is
  // there, since a truck rides on the car graph.
  function offeredProfiles(info) {
    const listed = info && Array.isArray(info.profiles)
      ? info.profiles.filter((p) => typeof p === 'string' && /^[a-z][a-z0-9_-]{0,31}$/.test(p)) : [];
    const have = new Set(listed.length ? listed : ['car']);
    if (have.has('car')) have.add('truck');
    const known = PROFILES.filter((p) => have.has(p));
    return known.concat([...have].filter((p) => !PROFILES.includes(p)).sort());
  }

  const round6 = (v) => Math.round(v * 1e6) / 1e6;

  // ring answers a polygon's corners as a closed GeoJSON ring of [lon, lat],
  // counter-clockwise (RFC 7946's right-hand rule).
  function ring(corners) {
    const r = corners.map((ll) => [round6(ll.lng), round6(ll.lat)]);
    let a = 0;
    for (let i = 0; i < r.length; i++) {
      const p = r[i], q = r[(i + 1) % r.length];
      a += p[0] * q[1] - q[0] * p[1];
    }
    if (a < 0) r.reverse();
    r.push(r[0].slice());
    return r;
  }

  // crossesItself reports whether two edges of a closed outline of corners
  // cross (adjacent edges share a corner and do not count).
  function crossesItself(corners) {
    const n = corners.length;
    const pt = (i) => [corners[i % n].lng, corners[i % n].lat];
    const orient = (a, b, c) => Math.sign((b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]));
    for (let i = 0; i < n; i++) {
      for (let j = i + 2; j < n; j++) {
        if (i === 0 && j === n - 1) continue;
        const a = pt(i), b = pt(i + 1), c = pt(j), d = pt(j + 1);
        if (orient(a, b, c) * orient(a, b, d) <= 0 && orient(c, d, a) * orient(c, d, b) <= 0) return true;
      }
    }
    return false;
  }

  window.geosvcOptions = function (map) {
    const o = {
      profiles: ['car', 'truck'],
      layer: L.layerGroup().addTo(map), // the finished areas
      sketch: L.layerGroup().addTo(map), // the polygon being drawn
      polygons: [], // finished: arrays of L.LatLng corners (not closed)
      corners: [], // the polygon being drawn
      line: null, // the outline being drawn
      drawing: false,
      message: '',
    };

    // offer fills the profile selector; the choice stays when still offered.
    o.offer = function (info) {
      o.profiles = offeredProfiles(info);
      const sel = $('profile');
      const was = sel.value;
      sel.textContent = '';
      for (const p of o.profiles) {
        const opt = document.createElement('option');
        opt.value = p;
        opt.textContent = LABELS[p] || p;
        sel.appendChild(opt);
      }
      sel.value = o.profiles.includes(was) ? was : o.profiles[0];
      vehicleShown();
    };

    o.profile = () => $('profile').value || 'car';

    function vehicleShown() { $('vehicle').hidden = o.profile() !== 'truck'; }

    // vehicle answers the truck's filled fields: numbers, and hazmat.
    o.vehicle = function () {
      const v = {};
      for (const input of $('vehicle').querySelectorAll('input[data-field]')) {
        if (input.type === 'checkbox') v[input.dataset.field] = input.checked;
        else if (Number.isFinite(input.valueAsNumber)) v[input.dataset.field] = input.valueAsNumber;
      }
      return v;
    };

    // vehicleHint says which fields are out of the usual range; the request
    // is sent all the same and the server's answer shown.
    function vehicleHint() {
      const notes = [];
      for (const input of $('vehicle').querySelectorAll('input[type=number]')) {
        const name = input.dataset.field;
        if (input.validity.badInput || input.value === '') notes.push(name + ' is empty: not sent');
        else if (input.validity.rangeOverflow) notes.push(name + ' above ' + input.max);
        else if (input.validity.rangeUnderflow) notes.push(name + ' below ' + input.min);
      }
      const v = o.vehicle();
      if (v.axle_load_t > v.weight_t) notes.push('axle load above the weight');
      const hint = $('vehicle-hint');
      hint.classList.toggle('warn', notes.length > 0);
      hint.textContent = notes.length
        ? notes.join('; ') + ' (sent as it is: the server decides).'
        : 'The server takes a height up to 6 m, a weight up to 100 t, a speed up to 130 km/h.';
    }

    // The areas: a Polygon for one, a MultiPolygon for several, or null.
    o.geojson = function () {
      if (!o.polygons.length) return null;
      const rings = o.polygons.map(ring);
      if (rings.length === 1) return { type: 'Polygon', coordinates: [rings[0]] };
      return { type: 'MultiPolygon', coordinates: rings.map((r) => [r]) };
    };

    // positions counts the positions avoid_polygons would hold, with the
    // polygon being drawn closed.
    o.positions = function () {
      let n = 0;
      for (const p of o.polygons) n += p.length + 1;
      if (o.corners.length) n += o.corners.length + 1;
      return n;
    };

    // departure: the picked departure time as RFC 3339 (UTC), '' for none.
    o.departure = function () {
      const v = $('departure').value;
      if (!v) return '';
      const d = new Date(v);
      return isNaN(d.getTime()) ? '' : d.toISOString();
    };

    // routeParams: the query parameters of routev1.
    o.routeParams = function () {
      const p = {};
      const dep = o.departure();
      if (dep) p.departure_time = dep;
      const profile = o.profile();
      if (profile !== 'car') p.profile = profile;
      if (profile === 'truck') {
        const v = Object.entries(o.vehicle()).map(([k, x]) => k + ':' + x).join(',');
        if (v) p.vehicle = v;
      }
      const g = o.geojson();
      if (g) p.avoid_polygons = JSON.stringify(g);
      return p;
    };

    // orderFields: the fields of a tdmv1 order.
    o.orderFields = function () {
      const f = {};
      const dep = o.departure();
      if (dep) f.departure_time = dep;
      const profile = o.profile();
      if (profile !== 'car') f.profile = profile;
      if (profile === 'truck') f.vehicle = o.vehicle();
      const g = o.geojson();
      if (g) f.avoid_polygons = g;
      return f;
    };

    // ---- drawing ----

    const px = (a, b) => map.latLngToContainerPoint(a).distanceTo(map.latLngToContainerPoint(b));

    function show(msg) {
      o.message = msg || '';
      const n = o.polygons.length;
      let s = n ? n + (n === 1 ? ' area, ' : ' areas, ') + o.positions() + ' of ' + MAX_POSITIONS + ' positions' : 'none';
      if (o.drawing) s += (n ? '; ' : ' yet; ') + 'drawing: ' + o.corners.length + (o.corners.length === 1 ? ' corner' : ' corners');
      else if (!n) s += ' (choose "draws an area to avoid" to draw one)';
      $('avoid-status').textContent = s + (o.message ? ' — ' + o.message : '');
      $('avoid-finish').disabled = o.corners.length < 3;
      $('avoid-undo').disabled = o.corners.length === 0;
    }

    const corner = (c, first) => L.circleMarker(c, { radius: first ? 5 : 3, color: '#b00', interactive: false }).addTo(o.sketch);

    // redraw draws the finished areas and the polygon being drawn afresh.
    function redraw() {
      o.layer.clearLayers();
      for (const p of o.polygons) {
        L.polygon(p, { color: '#b00', weight: 2, fillOpacity: 0.2, interactive: false }).addTo(o.layer);
      }
      o.sketch.clearLayers();
      o.line = L.polyline(o.corners, { color: '#b00', weight: 2, dashArray: '4 4', interactive: false }).addTo(o.sketch);
      o.corners.forEach((c, i) => corner(c, i === 0));
    }

    // setDrawing shows the drawing controls (mode "draws an area to
    // avoid"); leaving the mode keeps an unfinished polygon's corners.
    o.setDrawing = function (on) {
      o.drawing = on;
      $('avoid-hint').hidden = !on;
      $('avoid-finish').hidden = !on;
      $('avoid-undo').hidden = !on;
      if (on) map.doubleClickZoom.disable(); else map.doubleClickZoom.enable();
      show('');
    };

    // click adds a corner where the map was clicked; next to the first
    // corner it closes the polygon.
    o.click = function (ll) {
      const c = o.corners;
      if (c.length >= 3 && px(ll, c[0]) <= CLOSE_PX) { o.finish(); return; }
      if (c.length && px(ll, c[c.length - 1]) <= SAME_PX) return; // a double-click's second click
      if (o.positions() + (c.length ? 1 : 2) > MAX_POSITIONS) {
        show('at most ' + MAX_POSITIONS + ' positions in all: finish or clear');
        return;
      }
      c.push(ll);
      // One corner more: no redraw of the others (a polygon may have 1999).
      o.line.addLatLng(ll);
      corner(ll, c.length === 1);
      show('');
    };

    // finish closes the polygon being drawn (three corners at least, an
    // outline that does not cross itself).
    o.finish = function () {
      const c = o.corners;
      if (c.length < 3) { show('a polygon needs three corners'); return; }
      if (crossesItself(c)) { show('the outline crosses itself: undo corners'); return; }
      o.polygons.push(c.slice());
      o.corners = [];
      redraw();
      show('');
    };

    o.undo = function () { o.corners.pop(); redraw(); show(''); };
    o.clear = function () { o.polygons = []; o.corners = []; redraw(); show(''); };

    $('profile').addEventListener('change', vehicleShown);
    $('vehicle').addEventListener('input', vehicleHint);
    $('avoid-finish').addEventListener('click', () => o.finish());
    $('avoid-undo').addEventListener('click', () => o.undo());
    $('avoid-clear').addEventListener('click', () => o.clear());
    map.on('dblclick', () => { if (o.drawing) o.finish(); });
    o.offer({});
    redraw();
    show('');
    return o;
  };
})();
