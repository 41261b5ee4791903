import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { LIMIT_TOLERANCE_LUA } from './counter.store.js';

/**
 * The counter store's Lua scripts. Each counter has up to three keys, passed in this order for every item:
 *   meta  hash  v = usage (fixed: of the running window; rolling: running sum of the hits), e = fixed window end (ms),
 *               h = running sum of outstanding reservations, n = sequence of rolling hits, c = number of holds,
 *               k = number of rolling hits, x = when the keys expire (ms)
 *   hits  zset  rolling hits, member `<seq>|<amount>`, score = time (ms)
 *   held  zset  reservations, member `<reservation id>|<amount>`, score = when the hold expires (ms)
 * Times come from the caller (ARGV[1] = now in every script), so calendar periods computed in JavaScript and the
 * scripts agree.
 *
 * Cost: a call reads meta once (HMGET) and writes only the fields it changed, once (HSET); it touches the sorted sets
 * only where it must (no hold: no scan of held; no rolling hit gone: one ZRANGE; a settlement scans nothing). Measured
 * with Redis 7, the rest is mostly number <-> text conversion, so times go to Redis as the caller's text where they can.
 * All three keys expire together at x, one to two minutes after the last moment anything in them can count (window
 * end, newest hit + window, latest hold expiry): x moves only when that moment comes within a minute of it, and then a
 * minute further, so most calls set no expiry. Every hold in held expires at least a minute before x.
 * Counters written before c, k and x existed are counted once from their sorted sets (no migration).
 */
const PRELUDE = `
local TOLERANCE = ${LIMIT_TOLERANCE_LUA}
local MARGIN_MS = 60000
local SLACK_MS = 60000
local NOW, NOW_TEXT = tonumber(ARGV[1]), ARGV[1]
local function num(x) return tonumber(x) or 0 end
local function fmt(x) return string.format('%.17g', x) end
local function amount_of(member) return tonumber(string.match(member, '|(.*)$')) or 0 end
local function score(entry) return tonumber(entry[2]) end
-- Integers go back as numbers (no text conversion), anything else as exact text.
local function reply(x) if x == math.floor(x) and math.abs(x) < 2^53 then return x end return fmt(x) end

-- The keys must live until a margin after deadline: moves x (a slack further) when they would not.
local function extend_to(c, deadline)
  if c.x == nil or c.x < deadline + MARGIN_MS then
    c.x = math.floor(deadline) + MARGIN_MS + SLACK_MS
    c.extend = true
  end
end

-- A counter as its meta hash holds it. param: the end of a fixed window starting now, or the rolling window's ms.
local function load(kind, meta, hits, held, param)
  local c = {kind = kind, meta = meta, hits = hits, held = held, param = param}
  local legacy
  if kind == 'rolling' then
    local f = redis.call('HMGET', meta, 'v', 'h', 'n', 'c', 'k', 'x')
    c.v, c.h, c.n, c.c, c.k, c.x = num(f[1]), num(f[2]), num(f[3]), num(f[4]), num(f[5]), tonumber(f[6])
    legacy = c.x == nil and (f[1] or f[2] or f[3])
  else
    local f = redis.call('HMGET', meta, 'v', 'e', 'h', 'c', 'x')
    c.v, c.e, c.h, c.c, c.k, c.x = num(f[1]), tonumber(f[2]), num(f[3]), num(f[4]), 0, tonumber(f[5])
    legacy = c.x == nil and (f[1] or f[2] or f[3])
  end
  if legacy then
    -- Written before the counts and the expiry were kept in meta: counted once from the sorted sets.
    c.c = redis.call('ZCARD', held)
    local deadline = NOW
    if kind == 'rolling' then
      c.k = redis.call('ZCARD', hits)
      local newest = score(redis.call('ZRANGE', hits, -1, -1, 'WITHSCORES'))
      if newest then deadline = newest + param end
    elseif c.e and c.e > deadline then
      deadline = c.e
    end
    local last_hold = score(redis.call('ZRANGE', held, -1, -1, 'WITHSCORES'))
    if last_hold and last_hold > deadline then deadline = last_hold end
    extend_to(c, deadline)
    c.holds_changed, c.usage_changed = true, true
  end
  return c
end

-- Drops the expired holds (and subtracts them); none left: an exact zero.
local function prune_holds(c)
  if c.c > 0 and c.x and NOW >= c.x - MARGIN_MS then
    -- Every hold expires a margin before x: all of them have.
    redis.call('DEL', c.held)
    c.c, c.holds_changed = 0, true
  elseif c.c > 0 then
    local expired = redis.call('ZRANGEBYSCORE', c.held, '-inf', NOW_TEXT)
    if #expired > 0 then
      for _, member in ipairs(expired) do c.h = c.h - amount_of(member) end
      redis.call('ZREMRANGEBYSCORE', c.held, '-inf', NOW_TEXT)
      c.c = c.c - #expired
      c.holds_changed = true
    end
  end
  if c.c <= 0 then
    if c.h ~= 0 or c.c ~= 0 then c.holds_changed = true end
    c.c, c.h = 0, 0
  elseif c.h < 0 then
    c.h, c.holds_changed = 0, true
  end
end

-- Drops the rolling hits older than the window (and subtracts them); returns the oldest one left's time, or nil.
local function prune_hits(c)
  if c.k > 0 then
    local cutoff = NOW - c.param
    local oldest = score(redis.call('ZRANGE', c.hits, 0, 0, 'WITHSCORES'))
    if oldest and oldest > cutoff then return oldest end
    if oldest then
      local gone = redis.call('ZRANGEBYSCORE', c.hits, '-inf', cutoff)
      for _, member in ipairs(gone) do c.v = c.v - amount_of(member) end
      redis.call('ZREMRANGEBYSCORE', c.hits, '-inf', cutoff)
      c.k = c.k - #gone
      c.usage_changed = true
      if c.k > 0 then
        oldest = score(redis.call('ZRANGE', c.hits, 0, 0, 'WITHSCORES'))
        if oldest then return oldest end
      end
    end
  end
  -- No hit left: an exact zero, whatever rounding the running sum carried.
  if c.k ~= 0 or c.v ~= 0 then c.usage_changed = true end
  c.k, c.v = 0, 0
  return nil
end

-- value, reserved, reset_at, has_hits
local function state(c)
  prune_holds(c)
  if c.kind == 'rolling' then
    local oldest = prune_hits(c)
    if oldest then return c.v, c.h, oldest + c.param, true end
    return c.v, c.h, NOW, false
  end
  if c.e == nil or c.e <= NOW then return 0, c.h, c.param, true end
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
    redis.call('ZADD', c.hits, NOW_TEXT, c.n .. '|' .. text)
    c.k = c.k + 1
    c.v = c.v + amount
    extend_to(c, NOW + c.param)
  else
    if c.e == nil or c.e <= NOW then
      c.v, c.e = 0, c.param
      extend_to(c, c.e)
    end
    c.v = c.v + amount
  end
  c.usage_changed = true
end

local function hold(c, until_ms, until_text, member, amount)
  if c.c <= 0 then
    redis.call('DEL', c.held)
    c.c, c.h, c.new_held = 0, 0, true
  end
  redis.call('ZADD', c.held, until_text, member)
  c.c = c.c + 1
  c.h = c.h + amount
  extend_to(c, until_ms)
  c.holds_changed = true
end

-- Ends a hold; gone already when it expired and was dropped (its amount subtracted then).
local function unhold(c, member)
  if c.c <= 0 or redis.call('ZREM', c.held, member) == 0 then return end
  c.c = c.c - 1
  c.h = c.h - amount_of(member)
  if c.c <= 0 then c.c, c.h = 0, 0 elseif c.h < 0 then c.h = 0 end
  c.holds_changed = true
end

-- Writes the changed fields of meta at once, then the expiry of the keys that need one. Numbers are passed as they
-- are: Redis writes them with %.17g, as exact as fmt.
local function save(c)
  if c.x == nil then return end
  local f = {}
  if c.holds_changed then f[1], f[2], f[3], f[4] = 'h', c.h, 'c', c.c end
  if c.usage_changed then
    f[#f + 1], f[#f + 2] = 'v', c.v
    if c.kind == 'rolling' then
      f[#f + 1], f[#f + 2], f[#f + 3], f[#f + 4] = 'n', c.n, 'k', c.k
    elseif c.e then
      f[#f + 1], f[#f + 2] = 'e', c.e
    end
  end
  if c.extend then f[#f + 1], f[#f + 2] = 'x', c.x end
  if #f == 0 then return end
  redis.call('HSET', c.meta, unpack(f))
  local ttl = c.x - NOW
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
local c = load(ARGV[2], KEYS[1], KEYS[2], KEYS[3], tonumber(ARGV[3]))
if ARGV[4] ~= '' then add(c, tonumber(ARGV[4]), ARGV[4]) end
local v, h, reset_at = state(c)
save(c)
return {fmt(v), fmt(h), fmt(reset_at)}
`;

/**
 * KEYS record, then meta, hits, held per item. ARGV now, hold_ms, record_ttl_ms, record, then kind, param, amount,
 * limit, held member per item. Returns {1, used, reset_at per item} (used: usage + reservations, this one included;
 * each an integer, or text when fractional) or {0, item index, value, reserved, retry_after_ms}.
 */
const RESERVE = `${PRELUDE}
local hold_until = NOW + tonumber(ARGV[2])
local hold_until_text = fmt(hold_until)
local items = (#KEYS - 1) / 3
local states = {1}
local counters = {}
for i = 1, items do
  local k, a = 1 + (i - 1) * 3, 4 + (i - 1) * 5
  local kind, param, amount, limit = ARGV[a + 1], tonumber(ARGV[a + 2]), tonumber(ARGV[a + 3]), tonumber(ARGV[a + 4])
  local c = load(kind, KEYS[k + 1], KEYS[k + 2], KEYS[k + 3], param)
  counters[i] = c
  local v, h, reset_at, has_hits = state(c)
  if v + h + amount - limit > TOLERANCE * math.max(1, math.abs(limit)) then
    -- What the reads pruned is written back; nothing is reserved.
    for j = 1, i do save(counters[j]) end
    local retry = math.max(0, reset_at - NOW)
    if not has_hits then retry = param end
    return {0, i, fmt(v), fmt(h), fmt(retry)}
  end
  c.amount = amount
  states[#states + 1] = reply(v + h + amount)
  states[#states + 1] = reply(reset_at)
end
for i = 1, items do
  local c = counters[i]
  hold(c, hold_until, hold_until_text, ARGV[4 + (i - 1) * 5 + 5], c.amount)
  save(c)
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
local commit = ARGV[3] == 'commit'
for i = 1, (#KEYS - 1) / 3 do
  local k, a = 1 + (i - 1) * 3, 3 + (i - 1) * 4
  local c = load(ARGV[a + 1], KEYS[k + 1], KEYS[k + 2], KEYS[k + 3], tonumber(ARGV[a + 2]))
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
