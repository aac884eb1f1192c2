// osrm-text-instructions (OSRM's own phraser of route steps) on
// geosvc's OSRM API: every step of a route through Delaware phrases
// without error. Run by api/osrm_clients_test.go, which starts the
// server and sets GEOSVC_OSRM_URL (ending in /osrm/KEY).
import { test } from "node:test";
import assert from "node:assert/strict";
import createInstructions from "osrm-text-instructions";

const base = process.env.GEOSVC_OSRM_URL;

test("osrm-text-instructions phrases geosvc's steps", { skip: !base && "GEOSVC_OSRM_URL is not set" }, async () => {
  const coords = process.env.GEOSVC_OSRM_COORDS;
  const res = await fetch(`${base}/route/v1/driving/${coords}?steps=true&overview=false`);
  assert.equal(res.status, 200);
  const body = await res.json();
  assert.equal(body.code, "Ok");
  const oti = createInstructions("v5");
  const legs = body.routes[0].legs;
  const lines = [];
  legs.forEach((leg, legIndex) => {
    assert.ok(leg.steps.length >= 2, "a leg has a depart and an arrive step");
    for (const step of leg.steps) {
      const text = oti.compile("en", step, { legCount: legs.length, legIndex });
      assert.equal(typeof text, "string");
      assert.ok(text.length > 0, `empty instruction for ${JSON.stringify(step.maneuver)}`);
      lines.push(text);
    }
  });
  assert.match(lines[0], /^Head (north|south|east|west|northeast|northwest|southeast|southwest)/);
  assert.match(lines[lines.length - 1], /arrived/);
  // Every named road the route takes is phrased somewhere.
  const named = legs.flatMap((l) => l.steps).filter((s) => s.name && s.maneuver.type !== "arrive");
  for (const s of named) {
    assert.ok(lines.some((l) => l.includes(s.name)), `no instruction names ${s.name}`);
  }
  console.log(lines.join("\n"));
});
