// Seeds `request_logs` and `request_log_contents` with synthetic rows straight in SQL (no gateway involved), in big
// `INSERT … SELECT FROM generate_series` batches. The indexes the migrations made are dropped first and rebuilt after
// the load with their own definitions (a bulk build is far faster than a million index inserts), then both tables are
// vacuumed and analyzed, like a table autovacuum has seen.
//
// Distributions (seeded random, so two runs of the same size hold the same rows):
// - 10 providers and 6 models each, skewed (the first provider ~32 % of rows, the last ~5 %); 30 provider keys per
//   provider; 400 virtual keys (8 % of rows have none), two thirds of them in one of 40 teams, the others with one of
//   100 customers; 15 % of rows went through one of 20 routing rules.
// - request types: chat 80 %, responses 8 %, embeddings 7 %, text completion 2 %, rerank 2 %, count tokens 1 %;
//   status: success 95 %, error 4.5 %, processing 0.5 %.
// - latency log-normal (median ~700 ms, a tenth of that for embeddings); prompt and completion tokens log-normal
//   (medians ~400 and ~150; none on errors); cost from a per-model price, NULL (unknown) for 9 of the 60 models and
//   for errors; 40 % streams; timestamps spread evenly over the last `days` days in insertion order (as the writer
//   appends them: a time range is a contiguous part of the table).
// - content: a prompt built from templates, topics (skewed over 200, so a topic word matches from ~3 % of rows down
//   to ~0.2 %), an order number `ORD-nnnnn` in 20 % of rows (each number in ~2 rows per million: the rare term) and
//   polite filler ("please" in ~17 % of rows: the common term), and an answer; the log row's `search_text` is both.

import { bulkSeed } from './bulk-seed.mjs';

export const PROVIDERS = [
  'openai',
  'anthropic',
  'gemini',
  'bedrock',
  'azure',
  'mistral',
  'groq',
  'vertex',
  'cohere',
  'openrouter',
];
const MODEL_SUFFIXES = ['large', 'medium', 'small', 'mini', 'nano', 'legacy'];
export const modelOf = (p, m) => `${PROVIDERS[p]}-model-${MODEL_SUFFIXES[m]}`;
export const keyOf = (p, k) => `key-${PROVIDERS[p]}-${String(k).padStart(2, '0')}`;
export const vkOf = (v) => `vk-${String(v).padStart(3, '0')}`;
export const teamOf = (t) => `team-${String(t).padStart(2, '0')}`;
export const customerOf = (c) => `cust-${String(c).padStart(3, '0')}`;
export const ruleOf = (r) => `rule-${String(r).padStart(2, '0')}`;
export const TOPICS = Array.from({ length: 200 }, (_, i) => `topic${String(i).padStart(3, '0')}`);
/** The topic word of a mid-frequency topic (index 40: about 0.6 % of rows). */
export const MID_TOPIC = TOPICS[40];

const TEMPLATES = [
  'Summarize the following support ticket about',
  'Write a short product description for',
  'Translate this paragraph into French, it is about',
  'Explain like I am five:',
  'Draft a polite reply to the customer asking about',
  'Classify the sentiment of this review of',
  'Extract the invoice fields from this email regarding',
  'Generate three test cases for the function handling',
  'What are the main risks of',
  'Rewrite this sentence to be more concise:',
  'Give me a SQL query that lists',
  'Compare the two options for',
];
const FILLERS = [
  'please',
  'thanks in advance',
  'as soon as possible',
  'keep it under 100 words',
  'use bullet points',
  'in a friendly tone',
  'please be brief',
  'with examples',
];
const ANSWERS = [
  'Here is a summary of the ticket:',
  'Sure! Here are the details you asked for.',
  'The sentiment is mostly positive, with some concerns about',
  'I could not find enough information to answer precisely.',
  'Below is the query you asked for.',
  'Here are three options to consider.',
];

const sqlArray = (values) => `ARRAY[${values.map((v) => `'${v.replace(/'/g, "''")}'`).join(',')}]::text[]`;

/** One batch: rows `from`..`to` (1-based, inclusive), both tables, in one statement. */
function batchSql(days) {
  const providers = sqlArray(PROVIDERS);
  const suffixes = sqlArray(MODEL_SUFFIXES);
  return `
WITH r AS (
  SELECT g,
    floor(10 * power(random(), 2))::int AS p,
    floor(6 * power(random(), 1.5))::int AS m,
    floor(30 * power(random(), 2))::int AS k,
    CASE WHEN random() < 0.08 THEN NULL ELSE floor(400 * power(random(), 2))::int END AS v,
    CASE WHEN random() < 0.15 THEN floor(20 * random())::int END AS rule,
    random() AS obj, random() AS st, random() AS u1, random() AS u2, random() AS u3, random() AS u4,
    random() AS u5, random() AS u6, random() AS t, random() AS s, random() AS stop,
    floor(12 * random())::int + 1 AS tpl, floor(200 * power(random(), 3))::int AS topic,
    CASE WHEN random() < 0.2 THEN 'ORD-' || lpad(floor(100000 * random())::int::text, 5, '0') END AS ord,
    CASE WHEN random() < 0.7 THEN floor(8 * random())::int + 1 END AS fill,
    floor(6 * random())::int + 1 AS ans
  FROM generate_series($1::int, $2::int) g
  OFFSET 0
), d AS (
  SELECT r.*,
    gen_random_uuid() AS id,
    now() - make_interval(secs => ${days} * 86400 * ($3::int - g + t) / $3::int) AS ts,
    (${providers})[p + 1] AS provider,
    (${providers})[p + 1] || '-model-' || (${suffixes})[m + 1] AS model,
    CASE WHEN obj < 0.80 THEN 'chat_completion' WHEN obj < 0.88 THEN 'responses' WHEN obj < 0.95 THEN 'embedding'
      WHEN obj < 0.97 THEN 'text_completion' WHEN obj < 0.99 THEN 'rerank' ELSE 'count_tokens' END AS object,
    CASE WHEN st < 0.95 THEN 'success' WHEN st < 0.995 THEN 'error' ELSE 'processing' END AS status,
    sqrt(-2 * ln(1 - u1)) * cos(2 * pi() * u2) AS z1,
    sqrt(-2 * ln(1 - u3)) * cos(2 * pi() * u4) AS z2,
    sqrt(-2 * ln(1 - u5)) * cos(2 * pi() * u6) AS z3,
    (p * 6 + m) % 7 = 3 AS unpriced,
    (${sqlArray(TEMPLATES)})[tpl] || ' topic' || lpad(topic::text, 3, '0') || ' and its ' ||
      (${sqlArray(['billing', 'shipping', 'login', 'refund', 'upgrade', 'outage', 'contract', 'onboarding'])})[1 + g % 8] ||
      COALESCE(' regarding ' || ord, '') || COALESCE(', ' || (${sqlArray(FILLERS)})[fill], '') || '.' AS prompt,
    (${sqlArray(ANSWERS)})[ans] || ' The ' || (${sqlArray(['customer', 'account', 'order', 'team', 'service'])})[1 + g % 5] ||
      ' status is ' || (${sqlArray(['resolved', 'pending', 'escalated', 'closed'])})[1 + g % 4] || '.' AS answer
  FROM r
), v AS (
  SELECT d.*,
    CASE WHEN object = 'embedding' THEN 0.1 ELSE 1 END * exp(ln(700) + 0.8 * z1) AS latency,
    CASE WHEN status = 'success' THEN greatest(1, floor(exp(ln(400) + 1.0 * z2)))::int END AS prompt_tokens,
    CASE WHEN status <> 'success' THEN NULL WHEN object IN ('embedding', 'count_tokens', 'rerank') THEN 0
      ELSE greatest(1, floor(exp(ln(150) + 0.9 * z3)))::int END AS completion_tokens
  FROM d
), ins AS (
  INSERT INTO request_logs (id, timestamp, object, provider, model, canonical_model_name, selected_key_id,
    selected_key_name, virtual_key_id, virtual_key_name, team_id, customer_id, routing_rule_id, status, status_code,
    stream, latency, time_to_first_token, prompt_tokens, completion_tokens, total_tokens, cost, stop_reason,
    error_type, content_summary, token_usage, search_text)
  SELECT id, ts, object, provider, model, model,
    'key-' || provider || '-' || lpad(k::text, 2, '0'), 'Key ' || provider || ' ' || k,
    'vk-' || lpad(v::text, 3, '0'), 'Virtual key ' || v,
    CASE WHEN v % 3 <> 0 THEN 'team-' || lpad((v % 40)::text, 2, '0') END,
    CASE WHEN v % 3 = 0 THEN 'cust-' || lpad((v % 100)::text, 3, '0') END,
    'rule-' || lpad(rule::text, 2, '0'),
    status,
    CASE status WHEN 'error' THEN (ARRAY[429, 500, 502, 400, 401, 503])[1 + g % 6] ELSE 200 END,
    s < 0.4, latency, CASE WHEN s < 0.4 THEN latency * 0.2 END,
    prompt_tokens, completion_tokens, prompt_tokens + completion_tokens,
    CASE WHEN status = 'success' AND NOT unpriced
      THEN (prompt_tokens * (0.1 + (p * 6 + m) % 11) + completion_tokens * (0.4 + 4 * ((p * 6 + m) % 11))) / 1e6 END,
    CASE WHEN status <> 'success' THEN NULL WHEN stop < 0.85 THEN 'stop' WHEN stop < 0.95 THEN 'length'
      ELSE 'tool_calls' END,
    CASE WHEN status = 'error' THEN (ARRAY['provider_rate_limited', 'provider_error', 'provider_unavailable',
      'invalid_request', 'provider_auth_failed', 'provider_overloaded'])[1 + g % 6] END,
    left(prompt, 256),
    CASE WHEN status = 'success' THEN json_build_object('prompt_tokens', prompt_tokens, 'completion_tokens',
      completion_tokens, 'total_tokens', prompt_tokens + completion_tokens) END,
    lower(prompt || E'\\n' || answer)
  FROM v
)
INSERT INTO request_log_contents (log_id, timestamp, input_history, output_message, params)
SELECT id, ts,
  json_build_array(json_build_object('role', 'user', 'content', prompt)),
  CASE WHEN status = 'success' THEN json_build_object('role', 'assistant', 'content', answer) END,
  json_build_object('temperature', 0.7, 'max_tokens', 512)
FROM v`;
}

/**
 * Seeds `rows` rows in batches of `batch` on `client` (a pg.Client on the gateway's database, schema migrated).
 * Returns the timings `{ dropMs, insertMs, indexMs, vacuumMs }`; `log` gets a progress line per batch.
 */
export function seedRequestLogs(client, { rows, batch = 100_000, days = 30, log = () => {} }) {
  return bulkSeed(client, { tables: ['request_logs', 'request_log_contents'], sql: batchSql(days), rows, batch, log });
}
