// Seeds `mcp_tool_logs` with synthetic rows straight in SQL (no gateway involved), in `INSERT … SELECT FROM
// generate_series` batches around a drop and rebuild of the indexes (lib/bulk-seed.mjs).
//
// Distributions (seeded random, so two runs of the same size hold the same rows):
// - 12 MCP servers, skewed (the first ~30 % of rows, the last ~1 %), 8 tools each (`<server>-<tool>`, the first tool
//   of a server the most used); 300 virtual keys (10 % of rows have none); 40 % of rows came from agent mode and
//   carry an `llm_request_id` shared by ~3 calls.
// - status: success 91.5 %, error 8.5 % (none left `processing`: the gateway's sweeper would fail them during the
//   run); latency log-normal (median ~300 ms); cost on success from a per-tool price (0 for a fifth of the tools),
//   NULL on errors; timestamps spread evenly over the last `days` days in insertion order.
// - arguments `{ query, ref?, limit }`: a query built from templates and topics (skewed over 200, so a topic word
//   matches from ~3 % of rows down to ~0.2 %), an order number `ORD-nnnnn` in 20 % of rows (each number in ~2 rows
//   per million: the rare term), "please" in ~17 % (the common term); result `{ content: [{ type, text }] }`.
import { bulkSeed } from './bulk-seed.mjs';

export const SERVERS = [
  'files',
  'github',
  'slack',
  'jira',
  'web',
  'postgres',
  'calendar',
  'drive',
  'notion',
  'linear',
  'stripe',
  'sentry',
];
export const TOOLS = ['search', 'read', 'list', 'create', 'update', 'delete', 'comment', 'export'];
export const toolOf = (s, t) => `${SERVERS[s]}-${TOOLS[t]}`;
export const vkOf = (v) => `vk-${String(v).padStart(3, '0')}`;
export const requestOf = (r) => `req-${r}`;
/** The topic word of a mid-frequency topic (index 40: about 0.6 % of rows). */
export const MID_TOPIC = `topic${String(40).padStart(3, '0')}`;

const sqlArray = (values) => `ARRAY[${values.map((v) => `'${v.replace(/'/g, "''")}'`).join(',')}]::text[]`;

function batchSql(days) {
  return `
WITH r AS (
  SELECT g,
    floor(12 * power(random(), 2.2))::int AS s,
    floor(8 * power(random(), 1.7))::int AS t,
    CASE WHEN random() < 0.10 THEN NULL ELSE floor(300 * power(random(), 2))::int END AS v,
    random() < 0.4 AS agent, random() AS st, random() AS u1, random() AS u2, random() AS tt,
    floor(200 * power(random(), 3))::int AS topic,
    CASE WHEN random() < 0.2 THEN 'ORD-' || lpad(floor(100000 * random())::int::text, 5, '0') END AS ord,
    CASE WHEN random() < 0.24 THEN 'please' END AS fill,
    floor(6 * random())::int + 1 AS tpl
  FROM generate_series($1::int, $2::int) g
  OFFSET 0
), d AS (
  SELECT r.*,
    now() - interval '1 hour' - make_interval(secs => ${days} * 86400 * ($3::int - g + tt) / $3::int) AS ts,
    CASE WHEN st < 0.915 THEN 'success' ELSE 'error' END AS status,
    exp(ln(300) + 0.9 * sqrt(-2 * ln(1 - u1)) * cos(2 * pi() * u2)) AS latency,
    (${sqlArray(['find', 'look up', 'list the', 'open', 'summarize', 'update'])})[tpl] || ' topic' ||
      lpad(topic::text, 3, '0') || COALESCE(' ' || fill, '') AS q
  FROM r
)
INSERT INTO mcp_tool_logs (id, llm_request_id, timestamp, tool_name, server_label, virtual_key_id, virtual_key_name,
  arguments, result, error_details, latency, cost, status, metadata, created_at)
SELECT gen_random_uuid()::text,
  CASE WHEN agent THEN 'req-' || (g / 3) END,
  ts,
  (${sqlArray(SERVERS)})[s + 1] || '-' || (${sqlArray(TOOLS)})[t + 1],
  (${sqlArray(SERVERS)})[s + 1],
  'vk-' || lpad(v::text, 3, '0'), CASE WHEN v IS NOT NULL THEN 'Virtual key ' || v END,
  jsonb_build_object('query', q, 'limit', 10 + g % 40) || CASE WHEN ord IS NOT NULL THEN jsonb_build_object('ref', ord) ELSE '{}'::jsonb END,
  jsonb_build_object('content', jsonb_build_array(jsonb_build_object('type', 'text', 'text',
    CASE WHEN status = 'success' THEN 'Found ' || (g % 17) || ' results for the ' ||
      (${sqlArray(['customer', 'account', 'order', 'team', 'service'])})[1 + g % 5] ELSE 'upstream refused the call' END)),
    'isError', status = 'error'),
  CASE WHEN status = 'error' THEN jsonb_build_object('error', jsonb_build_object('message', 'tool call failed')) END,
  latency,
  CASE WHEN status = 'success' THEN ((s * 8 + t) % 5) * 0.001 END,
  status,
  '{"env":"bench"}'::jsonb,
  ts
FROM d`;
}

/** Seeds `rows` rows in batches of `batch` (a pg.Client on the gateway's database, schema migrated). */
export function seedMcpLogs(client, { rows, batch = 100_000, days = 30, log = () => {} }) {
  return bulkSeed(client, { tables: ['mcp_tool_logs'], sql: batchSql(days), rows, batch, log });
}
