// Decodes vector tiles with @mapbox/vector-tile and pbf (not the Go
// encoder's library) and prints, per file named on the command line, its
// layers: extent, version and features (type, properties, the geometry's
// point count and bounds in tile units, a polygon's exterior rings).
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { VectorTile } from '@mapbox/vector-tile';
import { PbfReader as Pbf } from 'pbf';

const out = {};
for (const file of process.argv.slice(2)) {
  let buf = readFileSync(file);
  if (buf.length >= 2 && buf[0] === 0x1f && buf[1] === 0x8b) buf = gunzipSync(buf);
  const tile = new VectorTile(new Pbf(buf));
  const layers = {};
  for (const [name, layer] of Object.entries(tile.layers)) {
    const features = [];
    for (let i = 0; i < layer.length; i++) {
      const f = layer.feature(i);
      const rings = f.loadGeometry();
      let n = 0, minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
      for (const r of rings) for (const p of r) {
        n++; minX = Math.min(minX, p.x); minY = Math.min(minY, p.y); maxX = Math.max(maxX, p.x); maxY = Math.max(maxY, p.y);
      }
      // Exterior rings: positive area in tile coordinates (MVT 2.1 4.3.4.4).
      let exteriors = 0;
      if (f.type === 3) {
        for (const r of rings) {
          let a = 0;
          for (let k = 0, j = r.length - 1; k < r.length; j = k++) a += (r[j].x * r[k].y - r[k].x * r[j].y);
          if (a > 0) exteriors++;
        }
      }
      features.push({ type: ['Unknown', 'Point', 'LineString', 'Polygon'][f.type], properties: f.properties, points: n,
        bbox: [minX, minY, maxX, maxY], exteriors,
        rings: name === 'water' ? rings.map((r) => r.map((p) => [p.x, p.y])) : undefined });
    }
    layers[name] = { extent: layer.extent, version: layer.version, features };
  }
  out[file] = layers;
}
process.stdout.write(JSON.stringify(out));
