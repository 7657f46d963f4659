-- wrk script for benchmarks/load.py: GIN_LOAD_MODE=game replays the prepared game requests
-- (weighted mix, from the Lua table in GIN_LOAD_REQUESTS); GIN_LOAD_MODE=static asks for
-- the page at GIN_LOAD_PATH. Both send what htmx in a browser sends (HX-Request, gzip).
-- done() prints one "LOAD-SUMMARY {json}" line that load.py reads.

local mode = os.getenv("GIN_LOAD_MODE") or "game"
local threads = {}
local prepared = {}  -- per thread: pre-formatted raw requests
local slots = {}     -- per thread: which kind each of the sum-of-weights slots draws from
statuses = {}        -- per thread, read back by done() through thread:get

function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  -- A fixed seed per thread: the same run replays the same sequence of requests.
  math.randomseed(#threads + 1)
  if mode == "static" then
    local headers = { ["HX-Request"] = nil, ["Accept-Encoding"] = "gzip" }
    prepared = { { wrk.format("GET", os.getenv("GIN_LOAD_PATH") or "/rules", headers) } }
    slots = { 1 }
    return
  end
  local kinds = dofile(os.getenv("GIN_LOAD_REQUESTS"))
  local headers = {
    ["HX-Request"] = "true",
    ["Accept-Encoding"] = "gzip",
    ["Content-Type"] = "application/x-www-form-urlencoded",
  }
  for index, kind in ipairs(kinds) do
    local formatted = {}
    for _, body in ipairs(kind.bodies) do
      table.insert(formatted, wrk.format("POST", kind.path, headers, body))
    end
    prepared[index] = formatted
    for _ = 1, kind.weight do
      table.insert(slots, index)
    end
  end
end

function request()
  local pool = prepared[slots[math.random(#slots)]]
  return pool[math.random(#pool)]
end

function response(status, headers, body)
  statuses[status] = (statuses[status] or 0) + 1
end

local function json_counts(counts)
  local parts = {}
  for status, count in pairs(counts) do
    table.insert(parts, string.format('"%d": %d', status, count))
  end
  return "{" .. table.concat(parts, ", ") .. "}"
end

function done(summary, latency, requests)
  local total, non_2xx = {}, 0
  for _, thread in ipairs(threads) do
    for status, count in pairs(thread:get("statuses") or {}) do
      total[status] = (total[status] or 0) + count
      if status < 200 or status > 299 then
        non_2xx = non_2xx + count
      end
    end
  end
  local e = summary.errors
  io.write(string.format(
    'LOAD-SUMMARY {"requests": %d, "duration_us": %d, "p50_us": %d, "p99_us": %d, "max_us": %d, '
      .. '"non_2xx": %d, "socket": {"connect": %d, "read": %d, "write": %d, "timeout": %d}, "statuses": %s}\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99), latency.max,
    non_2xx, e.connect, e.read, e.write, e.timeout, json_counts(total)
  ))
end
