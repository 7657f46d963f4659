-- wrk script for benchmarks/load.py.
--
-- GIN_LOAD_MODE=game: every wrk thread holds one connection and plays its own matches, as a
-- person at a table would: it posts the save the last answer carried (the move register refuses
-- any older one), draws, discards a random card (not the one just taken), and starts a new match
-- after every nine moves (or when a hand ends), so the mix is one new match to 4.5 draws and
-- 4.5 discards. Its levels cycle through GIN_LOAD_LEVELS by thread. Game requests carry no
-- Accept-Encoding (wrk cannot inflate an answer it must read).
-- GIN_LOAD_MODE=static asks for the page at GIN_LOAD_PATH, with Accept-Encoding: gzip as a browser.
-- done() prints one "LOAD-SUMMARY {json}" line that load.py reads.

local mode = os.getenv("GIN_LOAD_MODE") or "game"
local threads = {}
statuses = {}        -- per thread, read back by done() through thread:get
moves = { new = 0, draw = 0, discard = 0, other = 0, lost = 0 }

local MOVES_PER_MATCH = 9
local static_request
local game = { token = "", at = "", phase = "", hand = {}, actions = {}, moves = 0, level = "normal" }
local form_headers = { ["HX-Request"] = "true", ["Content-Type"] = "application/x-www-form-urlencoded" }

function setup(thread)
  table.insert(threads, thread)
  thread:set("thread_number", #threads)
end

local function split(text)
  local parts = {}
  for part in string.gmatch(text or "", "[^,]+") do table.insert(parts, part) end
  return parts
end

function init(args)
  math.randomseed(thread_number or 1)
  if mode == "static" then
    static_request = wrk.format("GET", os.getenv("GIN_LOAD_PATH") or "/rules", { ["Accept-Encoding"] = "gzip" })
    return
  end
  local levels = split(os.getenv("GIN_LOAD_LEVELS") or "normal")
  game.level = levels[((thread_number or 1) - 1) % #levels + 1]
end

local function encode(text)
  return (string.gsub(text, "[^%w%-%._~]", function(c) return string.format("%%%02X", string.byte(c)) end))
end

local function post(path, fields)
  local body = {}
  for _, pair in ipairs(fields) do table.insert(body, pair[1] .. "=" .. encode(pair[2])) end
  return wrk.format("POST", path, form_headers, table.concat(body, "&"))
end

local function choose(list)
  return list[math.random(#list)]
end

local next_kind = "new"

function request()
  if mode == "static" then return static_request end
  local action
  if game.token ~= "" and game.moves < MOVES_PER_MATCH then
    if game.phase == "upcard" and #game.actions > 0 then
      action = choose(game.actions)
    elseif game.phase == "draw" then
      action = "draw_stock"
    elseif game.phase == "discard" and #game.hand > 0 then
      action = "discard " .. choose(game.hand)
    end
  end
  if action == nil then
    next_kind = "new"
    game.moves = 0
    return post("/game/new", { { "level", game.level }, { "token", game.token }, { "sort", "rank" } })
  end
  next_kind = (action == "draw_stock" and "draw") or (string.find(action, "^discard") and "discard") or "other"
  game.moves = game.moves + 1
  return post("/game/act", {
    { "token", game.token }, { "at", game.at }, { "selected", "" }, { "sort", "rank" }, { "action", action },
  })
end

local function read_table(body)
  local token = string.match(body, 'data%-token="([^"]+)"')
  local phase = string.match(body, 'id="table" class="table phase%-([%a_]+)"')
  local at = string.match(body, 'id="table"[^>]-hx%-vals=\'{"at": "([^"]*)"')
  if token == nil or phase == nil or at == nil then return false end
  game.token, game.phase, game.at = token, phase, at
  game.hand, game.actions = {}, {}
  for card, classes in string.gmatch(body, '<label for="card%-(%w%w)" class="([^"]*)"') do
    if not string.find(" " .. classes .. " ", " taken ", 1, true) then table.insert(game.hand, card) end
  end
  for act in string.gmatch(body, 'hx%-post="/game/act" hx%-vals=\'{"action": "([^"]*)"}\'') do
    table.insert(game.actions, act)
  end
  return true
end

function response(status, headers, body)
  statuses[status] = (statuses[status] or 0) + 1
  if mode == "static" then return end
  moves[next_kind] = moves[next_kind] + 1
  if not read_table(body) then
    moves.lost = moves.lost + 1
    game.token = ""  -- start again with a new match
  end
end

local function json_counts(counts, quote_keys)
  local parts = {}
  for key, count in pairs(counts) do
    table.insert(parts, string.format('"%s": %d', tostring(key), count))
  end
  return "{" .. table.concat(parts, ", ") .. "}"
end

function done(summary, latency, requests)
  local total, kinds, non_2xx = {}, {}, 0
  for _, thread in ipairs(threads) do
    for status, count in pairs(thread:get("statuses") or {}) do
      total[status] = (total[status] or 0) + count
      if status < 200 or status > 299 then
        non_2xx = non_2xx + count
      end
    end
    for kind, count in pairs(thread:get("moves") or {}) do
      kinds[kind] = (kinds[kind] or 0) + count
    end
  end
  local e = summary.errors
  io.write(string.format(
    'LOAD-SUMMARY {"requests": %d, "duration_us": %d, "p50_us": %d, "p99_us": %d, "max_us": %d, '
      .. '"non_2xx": %d, "socket": {"connect": %d, "read": %d, "write": %d, "timeout": %d}, "statuses": %s, '
      .. '"kinds": %s}\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99), latency.max,
    non_2xx, e.connect, e.read, e.write, e.timeout, json_counts(total), json_counts(kinds)
  ))
end
