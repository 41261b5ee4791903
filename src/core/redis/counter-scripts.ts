import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { LIMIT_TOLERANCE_LUA } from './counter.store.js';

/**
 * The counter store's Lua scripts. Each counter has up to three keys, passed in this order for every item:
 *   meta  hash  v = usage (fixed: of the running window; rolling: running sum of the hits), e = fixed window end (ms),
 *               h = running sum of outstanding reservations, n = sequence of rolling hits
 *   hits  zset  rolling hits, member `<seq>|<amount>`, score = time (ms)
 *   held  zset  reservations, member `<reservation id>|<amount>`, score = when the hold expires (ms)
 * Times come from the caller (ARGV now), so calendar periods computed in JavaScript and the scripts agree. All three
 * keys expire together a minute after nothing in them can count any more.
 */
const PRELUDE = `
local TOLERANCE = ${LIMIT_TOLERANCE_LUA}
local MARGIN_MS = 60000
local function num(x) return tonumber(x) or 0 end
local function fmt(x) return string.format('%.17g', x) end
local function amount_of(member) return tonumber(string.match(member, '|(.*)$')) or 0 end

-- Sum of the outstanding reservations; expired ones are dropped (and subtracted) first.
local function held_sum(meta, held, now)
  local h = num(redis.call('HGET', meta, 'h'))
  local changed = false
  local expired = redis.call('ZRANGEBYSCORE', held, '-inf', now)
  if #expired > 0 then
    for _, member in ipairs(expired) do h = h - amount_of(member) end
    redis.call('ZREMRANGEBYSCORE', held, '-inf', now)
    changed = true
  end
  if h ~= 0 and (h < 0 or redis.call('EXISTS', held) == 0) then h = 0; changed = true end
  if changed and redis.call('EXISTS', meta) == 1 then redis.call('HSET', meta, 'h', fmt(h)) end
  return h
end

-- Sum of the rolling hits within the last ms; older ones are dropped (and subtracted) first.
local function rolling_value(meta, hits, now, ms)
  local v = num(redis.call('HGET', meta, 'v'))
  local changed = false
  local cutoff = now - ms
  local gone = redis.call('ZRANGEBYSCORE', hits, '-inf', cutoff)
  if #gone > 0 then
    for _, member in ipairs(gone) do v = v - amount_of(member) end
    redis.call('ZREMRANGEBYSCORE', hits, '-inf', cutoff)
    changed = true
  end
  -- No hit left: an exact zero, whatever rounding the running sum carried.
  if v ~= 0 and redis.call('EXISTS', hits) == 0 then v = 0; changed = true end
  if changed and redis.call('EXISTS', meta) == 1 then redis.call('HSET', meta, 'v', fmt(v)) end
  return v
end

-- Usage of the running fixed window, and its end (nil when none runs).
local function fixed_window(meta, now)
  local fields = redis.call('HMGET', meta, 'v', 'e')
  local e = tonumber(fields[2])
  if e == nil or e <= now then return 0, nil end
  return num(fields[1]), e
end

-- value, reserved, reset_at, has_hits. param: the end of a fixed window starting now, or the rolling window's ms.
local function state(kind, meta, hits, held, now, param)
  local h = held_sum(meta, held, now)
  if kind == 'rolling' then
    local v = rolling_value(meta, hits, now, param)
    local oldest = redis.call('ZRANGE', hits, 0, 0, 'WITHSCORES')
    if oldest[2] then return v, h, tonumber(oldest[2]) + param, true end
    return v, h, now, false
  end
  local v, e = fixed_window(meta, now)
  return v, h, e or param, true
end

local function add(kind, meta, hits, now, param, amount)
  if kind == 'rolling' then
    local v = rolling_value(meta, hits, now, param)
    if amount == 0 then return end
    local seq = redis.call('HINCRBY', meta, 'n', 1)
    redis.call('ZADD', hits, now, seq .. '|' .. fmt(amount))
    redis.call('HSET', meta, 'v', fmt(v + amount))
    return
  end
  local v, e = fixed_window(meta, now)
  if e == nil then e = param end
  redis.call('HSET', meta, 'v', fmt(v + amount), 'e', fmt(e))
end

-- Expiry of the counter's keys: a margin after the last moment anything in them counts.
local function touch(kind, meta, hits, held, now, param)
  local deadline = now
  if kind == 'rolling' then
    local newest = redis.call('ZRANGE', hits, -1, -1, 'WITHSCORES')
    if newest[2] then deadline = tonumber(newest[2]) + param end
  else
    local e = tonumber(redis.call('HGET', meta, 'e'))
    if e and e > deadline then deadline = e end
  end
  local last_hold = redis.call('ZRANGE', held, -1, -1, 'WITHSCORES')
  if last_hold[2] and tonumber(last_hold[2]) > deadline then deadline = tonumber(last_hold[2]) end
  local ttl = math.floor(deadline - now) + MARGIN_MS
  redis.call('PEXPIRE', meta, ttl)
  -- A fixed window has no hits key.
  if kind == 'rolling' then redis.call('PEXPIRE', hits, ttl) end
  redis.call('PEXPIRE', held, ttl)
end
`;

/** KEYS meta, hits, held. ARGV now, kind, param, amount ('' reads only). Returns {value, reserved, reset_at}. */
const INCREMENT = `${PRELUDE}
local now, kind, param = tonumber(ARGV[1]), ARGV[2], tonumber(ARGV[3])
if ARGV[4] ~= '' then add(kind, KEYS[1], KEYS[2], now, param, tonumber(ARGV[4])) end
local v, h, reset_at = state(kind, KEYS[1], KEYS[2], KEYS[3], now, param)
touch(kind, KEYS[1], KEYS[2], KEYS[3], now, param)
return {fmt(v), fmt(h), fmt(reset_at)}
`;

/**
 * KEYS record, then meta, hits, held per item. ARGV now, hold_ms, record_ttl_ms, record, then kind, param, amount,
 * limit, held member per item. Returns {1, used, reset_at per item} (used: usage + reservations, this one included)
 * or {0, item index, value, reserved, retry_after_ms}.
 */
const RESERVE = `${PRELUDE}
local now, hold_until = tonumber(ARGV[1]), tonumber(ARGV[1]) + tonumber(ARGV[2])
local items = (#KEYS - 1) / 3
local states = {1}
local held_sums = {}
for i = 1, items do
  local k, a = 1 + (i - 1) * 3, 4 + (i - 1) * 5
  local kind, param, amount, limit = ARGV[a + 1], tonumber(ARGV[a + 2]), tonumber(ARGV[a + 3]), tonumber(ARGV[a + 4])
  local v, h, reset_at, has_hits = state(kind, KEYS[k + 1], KEYS[k + 2], KEYS[k + 3], now, param)
  if v + h + amount - limit > TOLERANCE * math.max(1, math.abs(limit)) then
    local retry = math.max(0, reset_at - now)
    if not has_hits then retry = param end
    return {0, i, fmt(v), fmt(h), fmt(retry)}
  end
  states[#states + 1] = fmt(v + h + amount)
  states[#states + 1] = fmt(reset_at)
  held_sums[i] = h
end
for i = 1, items do
  local k, a = 1 + (i - 1) * 3, 4 + (i - 1) * 5
  local kind, param, amount, member = ARGV[a + 1], tonumber(ARGV[a + 2]), tonumber(ARGV[a + 3]), ARGV[a + 5]
  local meta, held = KEYS[k + 1], KEYS[k + 3]
  redis.call('ZADD', held, hold_until, member)
  redis.call('HSET', meta, 'h', fmt(held_sums[i] + amount))
  touch(kind, meta, KEYS[k + 2], held, now, param)
end
redis.call('SET', KEYS[1], ARGV[4], 'PX', ARGV[3])
return states
`;

/**
 * KEYS record, then meta, hits, held per item. ARGV now, record (as read), mode ('commit' | 'release'), then kind,
 * param, held member, actual amount per item. Returns 1, or 0 when the record changed or went (settled already).
 */
const SETTLE = `${PRELUDE}
if redis.call('GET', KEYS[1]) ~= ARGV[2] then return 0 end
redis.call('DEL', KEYS[1])
local now, commit = tonumber(ARGV[1]), ARGV[3] == 'commit'
for i = 1, (#KEYS - 1) / 3 do
  local k, a = 1 + (i - 1) * 3, 3 + (i - 1) * 4
  local kind, param, member = ARGV[a + 1], tonumber(ARGV[a + 2]), ARGV[a + 3]
  local meta, hits, held = KEYS[k + 1], KEYS[k + 2], KEYS[k + 3]
  local h = held_sum(meta, held, now)
  -- Gone already when the hold expired (held_sum subtracted it then).
  if redis.call('ZREM', held, member) == 1 then
    h = h - amount_of(member)
    if h < 0 or redis.call('EXISTS', held) == 0 then h = 0 end
    redis.call('HSET', meta, 'h', fmt(h))
  end
  if commit then add(kind, meta, hits, now, param, tonumber(ARGV[a + 4])) end
  touch(kind, meta, hits, held, now, param)
end
return 1
`;

/** A script run by its SHA-1, sent whole only when Redis does not know it yet (after a restart or SCRIPT FLUSH). */
export class LuaScript {
  private readonly sha: string;

  constructor(private readonly source: string) {
    this.sha = createHash('sha1').update(source).digest('hex');
  }

  async run(redis: Redis, keys: string[], args: Array<string | number>): Promise<unknown> {
    try {
      return await redis.evalsha(this.sha, keys.length, ...keys, ...args);
    } catch (err) {
      if (!(err instanceof Error) || !err.message.startsWith('NOSCRIPT')) throw err;
      return redis.eval(this.source, keys.length, ...keys, ...args);
    }
  }
}

export const COUNTER_SCRIPTS = {
  increment: new LuaScript(INCREMENT),
  reserve: new LuaScript(RESERVE),
  settle: new LuaScript(SETTLE),
};
