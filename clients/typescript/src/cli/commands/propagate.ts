import { clientFor } from '../context.js';
import { CommandFailure } from '../failure.js';
import { print } from '../output.js';
import { Progress } from '../progress.js';
import { UsageError, type Invocation } from '../spec.js';

const FIELDS = ['provider_configs', 'budgets', 'rate_limit', 'mcp_tool_groups', 'mcp_servers', 'mcp_tool_overrides'];
const csv = (value: unknown) =>
  typeof value === 'string' && value
    ? value
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    : [];

/**
 * Starts a propagation and follows its job until it ends: a bar on a terminal, a line per second otherwise. Exit 0
 * when it completed (the result on stdout), 1 when it failed.
 */
export async function run(invocation: Invocation): Promise<number> {
  const fields = csv(invocation.options.fields);
  if (fields.length === 0) throw new UsageError(`--fields is required (${FIELDS.join(', ')})`, invocation.path);
  const { client } = await clientFor(invocation);
  const ref = invocation.args[0]!;
  let id: number;
  if (/^\d+$/.test(ref)) id = Number(ref);
  else {
    const found = (await client.accessProfiles.list({ search: ref }).toArray()).filter((p) => p.name === ref);
    if (found.length !== 1) throw new CommandFailure(`no access profile named '${ref}'`);
    id = found[0]!.id;
  }
  const body = {
    fields: fields as never,
    dry_run: !!invocation.options['dry-run'],
    reset_usage: !!invocation.options['reset-usage'],
    user_ids: csv(invocation.options.users),
    group_ids: csv(invocation.options.teams),
  };
  const started = await client.accessProfiles.propagate(id, body);
  if (started.status === 200) {
    await print(invocation, started.body);
    return 0;
  }
  const jobId = String(started.body.job_id);
  const progress = new Progress(`propagation ${jobId}`);
  for (;;) {
    const job = await client.accessProfiles.propagation(jobId);
    if (job.status !== 'running') {
      progress.done(`${job.status} (${job.processed}/${job.total} users)`);
      await print(invocation, job);
      return job.status === 'completed' ? 0 : 1;
    }
    progress.update(job.processed, job.total, 'users');
    await new Promise((ok) => setTimeout(ok, 250));
  }
}
