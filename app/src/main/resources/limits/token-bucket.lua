-- A token bucket in one hash {tokens, at}: KEYS[1] the bucket, ARGV[1] capacity, ARGV[2]
-- milliseconds per token, ARGV[3] what to do: 1 take one token, 0 only look, -1 give one back.
-- Returns the milliseconds until a token is available (0: one was, and was taken if asked).
-- Time is Redis' own clock, so the nodes' clocks do not matter. The key expires once the
-- bucket would be full again, so idle buckets cost no memory.
local capacity = tonumber(ARGV[1])
local per = tonumber(ARGV[2])
local op = tonumber(ARGV[3])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local state = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(state[1])
local at = tonumber(state[2])
if tokens == nil or at == nil then
  tokens = capacity
  at = now
end
tokens = math.min(capacity, tokens + math.max(0, now - at) / per)
local wait = 0
if op == 1 then
  if tokens >= 1 then tokens = tokens - 1 else wait = math.ceil((1 - tokens) * per) end
elseif op == 0 then
  if tokens < 1 then wait = math.ceil((1 - tokens) * per) end
else
  tokens = math.min(capacity, tokens + 1)
end
if tokens >= capacity then
  redis.call('DEL', KEYS[1])
else
  redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(now))
  redis.call('PEXPIRE', KEYS[1], math.ceil((capacity - tokens) * per) + 1000)
end
return wait
