import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { LIMIT_TOLERANCE_LUA } from './counter.store.js';

/**
 * The counter store's Lua scripts. Each counter has up to three keys, passed in this order for every item:
 *   meta  hash  v = usage (fixed: of the running window; rolling: running sum of the hits), e = fixed window end (ms),
 *               h = running sum of outstanding reservations, n = sequence of rolling hits, c = number of holds,
 *               k = number of rolling hits, y = latest expiry of any hold taken, x = when the keys expire (ms)
 *   hits  zset  rolling hits, member `<seq>|<amount>`, score = time (ms)
 *   held  zset  reservations, member `<reservation id>|<amount>`, score = when the hold expires (ms)
 * Times come from the caller (ARGV now), so calendar periods computed in JavaScript and the scripts agree.
 *
 * A call reads meta once (HMGET), touches the sorted sets only where it must (no hold: no scan of held; no rolling hit
 * gone: one ZRANGE; a settlement does not scan at all) and writes meta once (HSET). All three keys expire together at
 * x, one to two minutes after the last moment anything in them can count (window end, newest hit + window, latest hold
 * expiry): x moves only when that moment comes within a minute of it, and then a minute further, so most calls set no
 * expiry. Counters written before c, k, y and x existed are counted once from their sorted sets (no migration).
 */
const PRELUDE = `
local TOLERANCE = ${LIMIT_TOLERANCE_LUA}
local MARGIN_MS = 60000
local SLACK_MS = 60000
local function num(x) return tonumber(x) or 0 end
local function fmt(x) return string.format('%.17g', x) end
local function amount_of(member) return tonumber(string.match(member, '|(.*)$')) or 0 end
local function score(entry) return tonumber(entry[2]) end

-- The keys must live until a margin after deadline: moves x (a slack further) when they would not.
local function extend_to(c, deadline)
  if c.x == nil or c.x < deadline + MARGIN_MS then
    c.x = math.floor(deadline) + MARGIN_MS + SLACK_MS
    c.extend = true
    c.dirty = true
  end
end

-- A counter as its meta hash holds it. param: the end of a fixed window starting now, or the rolling window's ms.
local function load(kind, meta, hits, held, now, param)
  local f = redis.call('HMGET', meta, 'v', 'e', 'h', 'n', 'c', 'k', 'y', 'x')
  local c = {
    kind = kind, meta = meta, hits = hits, held = held, now = now, param = param,
    v = num(f[1]), e = tonumber(f[2]), h = num(f[3]), n = num(f[4]),
    c = num(f[5]), k = num(f[6]), y = num(f[7]), x = tonumber(f[8]),
    dirty = false, extend = false, new_held = false, new_hits = false,
  }
  if c.x == nil and (f[1] or f[2] or f[3] or f[4]) then
    -- Written before the counts and the expiry were kept in meta: counted once from the sorted sets.
    c.c = redis.call('ZCARD', held)
    local deadline = now
    if kind == 'rolling' then
      c.k = redis.call('ZCARD', hits)
      local newest = score(redis.call('ZRANGE', hits, -1, -1, 'WITHSCORES'))
      if newest then deadline = newest + param end
    elseif c.e and c.e > deadline then
      deadline = c.e
    end
    c.y = score(redis.call('ZRANGE', held, -1, -1, 'WITHSCORES')) or 0
    if c.y > deadline then deadline = c.y end
    extend_to(c, deadline)
  end
  return c
end

-- Drops the expired holds (and subtracts them); none left: an exact zero.
local function prune_holds(c)
  if c.c > 0 and c.now >= c.y then
    -- Every hold ever taken has expired.
    redis.call('DEL', c.held)
    c.c, c.dirty = 0, true
  elseif c.c > 0 then
    local expired = redis.call('ZRANGEBYSCORE', c.held, '-inf', c.now)
    if #expired > 0 then
      for _, member in ipairs(expired) do c.h = c.h - amount_of(member) end
      redis.call('ZREMRANGEBYSCORE', c.held, '-inf', c.now)
      c.c = c.c - #expired
      c.dirty = true
    end
  end
  if c.c <= 0 then
    if c.h ~= 0 or c.c ~= 0 then c.dirty = true end
    c.c, c.h = 0, 0
  elseif c.h < 0 then
    c.h, c.dirty = 0, true
  end
end

-- Drops the rolling hits older than the window (and subtracts them); returns the oldest one left's time, or nil.
local function prune_hits(c)
  if c.k > 0 then
    local cutoff = c.now - c.param
    local oldest = score(redis.call('ZRANGE', c.hits, 0, 0, 'WITHSCORES'))
    if oldest and oldest > cutoff then return oldest end
    if oldest then
      local gone = redis.call('ZRANGEBYSCORE', c.hits, '-inf', cutoff)
      for _, member in ipairs(gone) do c.v = c.v - amount_of(member) end
      redis.call('ZREMRANGEBYSCORE', c.hits, '-inf', cutoff)
      c.k = c.k - #gone
      c.dirty = true
      if c.k > 0 then
        oldest = score(redis.call('ZRANGE', c.hits, 0, 0, 'WITHSCORES'))
        if oldest then return oldest end
      end
    end
  end
  -- No hit left: an exact zero, whatever rounding the running sum carried.
  if c.k ~= 0 or c.v ~= 0 then c.dirty = true end
  c.k, c.v = 0, 0
  return nil
end

-- value, reserved, reset_at, has_hits
local function state(c)
  prune_holds(c)
  if c.kind == 'rolling' then
    local oldest = prune_hits(c)
    if oldest then return c.v, c.h, oldest + c.param, true end
    return c.v, c.h, c.now, false
  end
  if c.e == nil or c.e <= c.now then return 0, c.h, c.param, true end
  return c.v, c.h, c.e, true
end

-- amount: the number, and its text as the caller sent it (JavaScript's shortest round-trip form).
local function add(c, amount, text)
  if c.kind == 'rolling' then
    if amount == 0 then return end
    if c.k <= 0 then
      -- A fresh set: nothing of an earlier one (its keys expired at another instant) stays in it.
      redis.call('DEL', c.hits)
      c.k, c.v, c.new_hits = 0, 0, true
    end
    c.n = c.n + 1
    redis.call('ZADD', c.hits, c.now, c.n .. '|' .. text)
    c.k = c.k + 1
    c.v = c.v + amount
    extend_to(c, c.now + c.param)
  else
    if c.e == nil or c.e <= c.now then
      c.v, c.e = 0, c.param
      extend_to(c, c.e)
    end
    c.v = c.v + amount
  end
  c.dirty = true
end

local function hold(c, until_ms, member, amount)
  if c.c <= 0 then
    redis.call('DEL', c.held)
    c.c, c.h, c.new_held = 0, 0, true
  end
  redis.call('ZADD', c.held, until_ms, member)
  c.c = c.c + 1
  c.h = c.h + amount
  if until_ms > c.y then c.y = until_ms end
  extend_to(c, until_ms)
  c.dirty = true
end

-- Ends a hold; gone already when it expired and was dropped (its amount subtracted then).
local function unhold(c, member)
  if c.c <= 0 or redis.call('ZREM', c.held, member) == 0 then return end
  c.c = c.c - 1
  c.h = c.h - amount_of(member)
  if c.c <= 0 then c.c, c.h = 0, 0 elseif c.h < 0 then c.h = 0 end
  c.dirty = true
end

-- Writes meta once, then sets the expiry of the keys that need one.
local function save(c)
  if not c.dirty or c.x == nil then return end
  -- Numbers are passed as they are: Redis writes them with %.17g, exact like fmt and cheaper than Lua's string.format.
  if c.kind == 'rolling' then
    redis.call('HSET', c.meta, 'v', c.v, 'h', c.h, 'c', c.c, 'y', c.y, 'x', c.x, 'n', c.n, 'k', c.k)
  elseif c.e then
    redis.call('HSET', c.meta, 'v', c.v, 'h', c.h, 'c', c.c, 'y', c.y, 'x', c.x, 'e', c.e)
  else
    redis.call('HSET', c.meta, 'v', c.v, 'h', c.h, 'c', c.c, 'y', c.y, 'x', c.x)
  end
  local ttl = c.x - c.now
  if c.extend then
    redis.call('PEXPIRE', c.meta, ttl)
    redis.call('PEXPIRE', c.held, ttl)
    if c.kind == 'rolling' then redis.call('PEXPIRE', c.hits, ttl) end
    return
  end
  if c.new_held then redis.call('PEXPIRE', c.held, ttl) end
  if c.new_hits then redis.call('PEXPIRE', c.hits, ttl) end
end
`;

/** KEYS meta, hits, held. ARGV now, kind, param, amount ('' reads only). Returns {value, reserved, reset_at}. */
const INCREMENT = `${PRELUDE}
local c = load(ARGV[2], KEYS[1], KEYS[2], KEYS[3], tonumber(ARGV[1]), tonumber(ARGV[3]))
if ARGV[4] ~= '' then add(c, tonumber(ARGV[4]), ARGV[4]) end
local v, h, reset_at = state(c)
save(c)
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
local counters = {}
for i = 1, items do
  local k, a = 1 + (i - 1) * 3, 4 + (i - 1) * 5
  local kind, param, amount, limit = ARGV[a + 1], tonumber(ARGV[a + 2]), tonumber(ARGV[a + 3]), tonumber(ARGV[a + 4])
  local c = load(kind, KEYS[k + 1], KEYS[k + 2], KEYS[k + 3], now, param)
  counters[i] = c
  local v, h, reset_at, has_hits = state(c)
  if v + h + amount - limit > TOLERANCE * math.max(1, math.abs(limit)) then
    -- What the reads pruned is written back; nothing is reserved.
    for j = 1, i do save(counters[j]) end
    local retry = math.max(0, reset_at - now)
    if not has_hits then retry = param end
    return {0, i, fmt(v), fmt(h), fmt(retry)}
  end
  states[#states + 1] = fmt(v + h + amount)
  -- An integer (ms): returned as a number.
  states[#states + 1] = reset_at
end
for i = 1, items do
  local a = 4 + (i - 1) * 5
  hold(counters[i], hold_until, ARGV[a + 5], tonumber(ARGV[a + 3]))
  save(counters[i])
end
redis.call('SET', KEYS[1], ARGV[4], 'PX', ARGV[3])
return states
`;

/**
 * KEYS record, then meta, hits, held per item. ARGV now, record (as read), mode ('commit' | 'release'), then kind,
 * param, held member, actual amount per item. Returns 1, or 0 when the record changed or went (settled already).
 * Expired holds of others are left for the next read to drop (every read drops them first).
 */
const SETTLE = `${PRELUDE}
if redis.call('GET', KEYS[1]) ~= ARGV[2] then return 0 end
redis.call('DEL', KEYS[1])
local now, commit = tonumber(ARGV[1]), ARGV[3] == 'commit'
for i = 1, (#KEYS - 1) / 3 do
  local k, a = 1 + (i - 1) * 3, 3 + (i - 1) * 4
  local c = load(ARGV[a + 1], KEYS[k + 1], KEYS[k + 2], KEYS[k + 3], now, tonumber(ARGV[a + 2]))
  unhold(c, ARGV[a + 3])
  if commit then add(c, tonumber(ARGV[a + 4]), ARGV[a + 4]) end
  save(c)
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
