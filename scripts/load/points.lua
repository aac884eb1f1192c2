-- wrk script: GET requests rotating through a file of seeded points.
--
--   wrk -t1 -c32 -d20s -s scripts/load/points.lua URL -- PATH POINTS KEY
--
-- PATH is the request path with {x} and {y} where the coordinates go
-- ("/timezonesv1/xy2tzdata?x={x}&y={y}"), and {z} where a third column
-- goes (map tiles: "/tilesv1/{z}/{x}/{y}.png"), POINTS a file of "x y"
-- (or "x y z") lines, KEY the x-api-key. Every thread starts at another offset of the file.
-- ACCEPT_ENCODING in the environment (e.g. gzip, as browsers and most HTTP
-- client libraries send it) is sent as Accept-Encoding.
-- done() prints the latency percentiles and the count of 4xx/5xx answers.

local paths = {}
local threads = {}
local counter = 0

function setup(thread)
  counter = counter + 1
  thread:set("id", counter)
  table.insert(threads, thread)
end

function init(args)
  local tmpl, file, key = args[1], args[2], args[3]
  if not (tmpl and file and key) then
    error("usage: wrk ... -s points.lua URL -- PATH POINTS KEY")
  end
  -- A value is inserted literally: "%" in a replacement string would
  -- start a capture reference (percent-escaped queries have many).
  local function lit(s) return (s:gsub("%%", "%%%%")) end
  for line in io.lines(file) do
    local x, y = line:match("^(%S+)%s+(%S+)")
    local z = line:match("^%S+%s+%S+%s+(%S+)") or ""
    if x then
      paths[#paths + 1] = tmpl:gsub("{x}", lit(x)):gsub("{y}", lit(y)):gsub("{z}", lit(z))
    end
  end
  if #paths == 0 then
    error("no points in " .. file)
  end
  wrk.headers["x-api-key"] = key
  wrk.headers["accept"] = tmpl:find("%.png") and "image/png" or (tmpl:find("%.mvt") and "application/vnd.mapbox-vector-tile" or "application/json")
  i = ((id or 1) - 1) * 997 % #paths
  local enc = os.getenv("ACCEPT_ENCODING")
  if enc and enc ~= "" then
    wrk.headers["accept-encoding"] = enc
  end
end

function request()
  i = i % #paths + 1
  return wrk.format("GET", paths[i])
end

-- No response() callback: with one, wrk hands every body to Lua, which
-- for answers of a few hundred KB costs the client more than the server.
-- Failed answers are wrk's own count of statuses above 399.

function done(summary, latency, requests)
  local nbad = summary.errors.status
  local secs = summary.duration / 1e6
  io.write(string.format("requests %d in %.1fs: %.0f req/s, 4xx/5xx %d, socket errors %d\n",
    summary.requests, secs, summary.requests / secs, nbad,
    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout))
  io.write(string.format("latency ms: p50 %.2f, p90 %.2f, p99 %.2f, max %.2f\n",
    latency:percentile(50) / 1e3, latency:percentile(90) / 1e3,
    latency:percentile(99) / 1e3, latency.max / 1e3))
end
