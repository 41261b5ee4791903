import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { LIMIT_TOLERANCE_LUA } from './counter.store.js';

/**
 * The counter store's Lua script: one run per batch of calls (`counter-batch.ts`). Each counter has up to three keys,
 * passed in this order for every counter:
 *   meta  hash  v = usage (fixed: of the running window; rolling: running sum of the hits), e = fixed window end (ms),
 *               h = running sum of outstanding reservations, n = sequence of rolling hits, c = number of holds,
 *               k = number of rolling hits, x = when the keys expire (ms)
 *   hits  zset  rolling hits, member `<seq>|<amount>`, score = time (ms)
 *   held  zset  reservations, member `<reservation id>|<amount>`, score = when the hold expires (ms)
 * Times come from the caller (ARGV[1] = now), so calendar periods computed in JavaScript and the script agree.
 *
 * Cost: a run reads each counter's meta once (HMGET) and writes the fields it changed once (HSET), whatever number of
 * calls touch it; the holds of the run go into held with one ZADD and leave it with one ZMSCORE (which of them are
 * still there) and one ZREM; expired holds are looked for once (no hold: no scan); rolling hits cost a ZRANGE per
 * read. Measured with Redis 7.0, a run costs about 2 µs of Lua per item of a call, a few µs per Redis command and
 * about 1 µs per argument it passes, so calls come as one JSON array (cjson decodes it in C) of numbers and ready-made
 * texts. ZMSCORE needs Redis 6.2 or newer.
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

-- Drops the expired holds (and subtracts them); none left: an exact zero. A hold this batch has ended already is still
-- in held (save removes it) but no longer counted: it is skipped.
local function prune_holds(c)
  if c.c > 0 and c.x and NOW >= c.x - MARGIN_MS then
    -- Every hold expires a margin before x: all of them have.
    redis.call('DEL', c.held)
    c.c, c.holds_changed, c.present = 0, true, {}
  elseif c.c > 0 then
    local expired = redis.call('ZRANGEBYSCORE', c.held, '-inf', NOW_TEXT)
    if #expired > 0 then
      for _, member in ipairs(expired) do
        if not c.ended[member] then
          c.h = c.h - amount_of(member)
          c.c = c.c - 1
          c.present[member] = nil
        end
      end
      redis.call('ZREMRANGEBYSCORE', c.held, '-inf', NOW_TEXT)
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

-- value, reserved, reset_at, has_hits. Expired holds are dropped at the first read of a batch (its NOW is one instant).
local function state(c)
  if not c.pruned then
    prune_holds(c)
    c.pruned = true
  end
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

-- The hold is added to held by save, with every other hold of the batch on this counter (one ZADD).
local function hold(c, until_ms, until_text, member, amount)
  if c.c <= 0 then
    -- Whatever is left in held counts no longer: gone now, so no member of it is found by an unhold below.
    redis.call('DEL', c.held)
    c.c, c.h, c.new_held, c.present = 0, 0, true, {}
  end
  c.adds[#c.adds + 1] = until_text
  c.adds[#c.adds + 1] = member
  c.c = c.c + 1
  c.h = c.h + amount
  extend_to(c, until_ms)
  c.holds_changed = true
end

-- Ends a hold; gone already when it expired and was dropped (its amount subtracted then). Whether it is still in held
-- was read for every member the batch ends on this counter at once (present); save removes them with one ZREM.
local function unhold(c, member)
  if c.c <= 0 or not c.present[member] then return end
  c.present[member], c.ended[member] = nil, true
  c.removes[#c.removes + 1] = member
  c.c = c.c - 1
  c.h = c.h - amount_of(member)
  if c.c <= 0 then c.c, c.h = 0, 0 elseif c.h < 0 then c.h = 0 end
  c.holds_changed = true
end

-- Writes the changed fields of meta at once, then the expiry of the keys that need one. Numbers are passed as they
-- are: Redis writes them with %.17g, as exact as fmt.
local function save(c)
  if c.x == nil then return end
  if #c.removes > 0 then redis.call('ZREM', c.held, unpack(c.removes)) end
  if #c.adds > 0 then redis.call('ZADD', c.held, unpack(c.adds)) end
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

/**
 * Every counter call of a batch, in order, as if each ran alone at the batch's instant: a counter is read once and
 * written once per batch, whatever number of calls touch it.
 *
 * KEYS meta, hits, held per counter, then the reservation records. ARGV now, the batch as JSON (decoded in C by
 * cjson: one argument instead of dozens per call), then the records' values `{"layouts": ["fixed" | "rolling" per counter], "calls": [...]}`.
 * A call is one flat array, its items' fields following its own (counter: 1-based counter index; record: 1-based
 * index among the records; param: the end of a fixed window starting now, or the rolling window's ms; member: the
 * hold's name in held, `<reservation id>|<amount>`; an amount that names a rolling hit comes as a number and as text):
 *   "r", record, hold_ms, record_ttl_ms, record value's index in ARGV, item count, then per item counter, param, amount,
 *        limit, member
 *   "s", record, "commit" | "release", item count, then per item counter, param, member, actual amount, its text
 *   "i", counter, param, amount, its text (no amount: false, "": a read)
 * Flat arrays of numbers keep cjson's work and the garbage it leaves small (a table per call, not per item).
 * Returns one answer per call: r {1, used, reset_at per item} (used: usage + reservations, this one included; each an
 * integer, or text when fractional) or {0, item index, value, reserved, retry_after_ms}; s 1, or 0 when the record
 * went (settled already, or expired); i {value, reserved, reset_at}.
 */
const BATCH = `${PRELUDE}
local batch = cjson.decode(ARGV[2])
local layouts, calls = batch.layouts, batch.calls
local COUNTERS = #layouts

-- A first pass finds the records the settlements name and the holds they end on each counter.
local ending, record_keys = {}, {}
for _, call in ipairs(calls) do
  if call[1] == 's' then
    record_keys[#record_keys + 1] = KEYS[3 * COUNTERS + call[2]]
    for a = 5, #call, 5 do
      local members = ending[call[a]]
      if not members then
        members = {}
        ending[call[a]] = members
      end
      members[#members + 1] = call[a + 2]
    end
  end
end

local live = {}
if #record_keys > 0 then
  local found = redis.call('MGET', unpack(record_keys))
  for i, key in ipairs(record_keys) do live[key] = found[i] ~= false end
end

local counters, loaded = {}, {}
local function counter(index, param)
  local c = counters[index]
  if not c then
    local k = (index - 1) * 3
    c = load(layouts[index], KEYS[k + 1], KEYS[k + 2], KEYS[k + 3], param)
    c.adds, c.removes, c.present, c.ended = {}, {}, {}, {}
    local members = ending[index]
    if members and c.c > 0 then
      local scores = redis.call('ZMSCORE', c.held, unpack(members))
      for i, member in ipairs(members) do
        if scores[i] then c.present[member] = true end
      end
    end
    counters[index] = c
    loaded[#loaded + 1] = c
  end
  c.param = param
  return c
end

local function reserve(call)
  local last = #call
  local answer = {1}
  for a = 7, last, 5 do
    local c = counter(call[a], call[a + 1])
    local amount, limit = call[a + 2], call[a + 3]
    local v, h, reset_at, has_hits = state(c)
    local used = v + h + amount
    if used - limit > TOLERANCE * math.max(1, math.abs(limit)) then
      -- Nothing is reserved (what the reads pruned is still written back).
      local retry = math.max(0, reset_at - NOW)
      if not has_hits then retry = c.param end
      return {0, (a - 2) / 5, fmt(v), fmt(h), fmt(retry)}
    end
    answer[#answer + 1] = reply(used)
    answer[#answer + 1] = reply(reset_at)
  end
  local hold_until = NOW + call[3]
  local hold_until_text = fmt(hold_until)
  for a = 7, last, 5 do
    hold(counters[call[a]], hold_until, hold_until_text, call[a + 4], call[a + 2])
  end
  redis.call('SET', KEYS[3 * COUNTERS + call[2]], ARGV[call[5]], 'PX', call[4])
  return answer
end

-- A record ends once: a second settlement of it in the same batch finds it gone, as it would alone.
local ended = {}
local function settle(call)
  local key = KEYS[3 * COUNTERS + call[2]]
  if not live[key] then return 0 end
  live[key] = false
  ended[#ended + 1] = key
  local commit = call[3] == 'commit'
  for a = 5, #call, 5 do
    local c = counter(call[a], call[a + 1])
    unhold(c, call[a + 2])
    if commit then add(c, call[a + 3], call[a + 4]) end
  end
  return 1
end

local function increment(call)
  local c = counter(call[2], call[3])
  if call[4] then add(c, call[4], call[5]) end
  local v, h, reset_at = state(c)
  return {fmt(v), fmt(h), fmt(reset_at)}
end

local answers = {}
for i, call in ipairs(calls) do
  local kind = call[1]
  if kind == 'r' then answers[i] = reserve(call)
  elseif kind == 's' then answers[i] = settle(call)
  else answers[i] = increment(call) end
end
for _, c in ipairs(loaded) do save(c) end
if #ended > 0 then redis.call('DEL', unpack(ended)) end
return answers
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

export const COUNTER_BATCH_SCRIPT = new LuaScript(BATCH);
