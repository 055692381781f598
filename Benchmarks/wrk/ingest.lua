-- POSTs sensor reports to /v1/gateway/events: BATCH reports per request, each a state flip of
-- the next sensor with a fresh sequence, so the server does the full work (state, counters,
-- live events) for most of them. Env: SENSORS (file, one id a line), BATCH, KEY.
local threads = {}

function setup(thread)
  thread:set("tid", #threads)
  table.insert(threads, thread)
end

function init(args)
  ids = {}
  for line in io.lines(os.getenv("SENSORS")) do ids[#ids + 1] = line end
  batch = tonumber(os.getenv("BATCH") or "1")
  key = os.getenv("KEY")
  counter = 0
  accepted = 0
end

request = function()
  local parts = {}
  local now = os.date("!%Y-%m-%dT%H:%M:%SZ")
  for i = 1, batch do
    counter = counter + 1
    local n = counter * 4 + tid
    local sensor = ids[(n % #ids) + 1]
    local occupied = (math.floor(n / #ids) % 2 == 0) and "true" or "false"
    parts[i] = string.format('{"sensorId":"%s","occupied":%s,"observedAt":"%s","sequence":%d}', sensor, occupied, now, n)
  end
  local body = '{"events":[' .. table.concat(parts, ",") .. ']}'
  return wrk.format("POST", "/v1/gateway/events",
    { ["Content-Type"] = "application/json", ["Authorization"] = "Bearer " .. key }, body)
end
