import { writeFile } from 'node:fs/promises';
import { clientFor } from '../context.js';
import { CommandFailure, reportFailure } from '../failure.js';
import { LineBuffer } from '../line-buffer.js';
import { outputFormat } from '../output.js';
import { UsageError, type Invocation } from '../spec.js';
import { execute } from '../declarative/execute.js';
import { exportDocument } from '../declarative/export-doc.js';
import { Registry, type KindContext, type KindName } from '../declarative/kind.js';
import { KINDS, kindOf } from '../declarative/kinds/index.js';
import { readLive } from '../declarative/live.js';
import { loadFiles, type Problem } from '../declarative/load.js';
import { makePlan, neededPermissions, stepLabel, type Plan } from '../declarative/plan.js';
import { planData, planText, problemsText } from '../declarative/render.js';
import { resolveSecrets, unreadableSecrets } from '../declarative/secrets.js';

/** The client, the edition and the caller's permissions (`all` for an admin or where permissions are not enforced). */
async function connect(invocation: Invocation): Promise<{ ctx: KindContext; permissions: Set<string> | 'all' }> {
  const { client } = await clientFor(invocation);
  const [version, me] = await Promise.all([client.version(), client.whoami()]);
  const enterprise = version.edition === 'enterprise';
  const ctx: KindContext = { client, registry: new Registry(), resolveSecrets, enterprise };
  return { ctx, permissions: !enterprise || me.is_admin ? 'all' : new Set(me.permissions) };
}

function fail(problems: readonly Problem[] | string[], what: string): never {
  const text =
    typeof problems[0] === 'string' ? `${(problems as string[]).join('\n')}\n` : problemsText(problems as Problem[]);
  process.stderr.write(text);
  throw new CommandFailure(`${problems.length} problem${problems.length === 1 ? '' : 's'}; ${what}`);
}

async function yamlText(value: unknown): Promise<string> {
  const { stringify } = await import('yaml');
  return stringify(value, { lineWidth: 0, aliasDuplicateObjects: false });
}

/** `gatewayctl export`: the live management state as a file (secrets as references, never values). */
export async function runExport(invocation: Invocation): Promise<number> {
  const { ctx } = await connect(invocation);
  const kinds = KINDS.filter((k) => ctx.enterprise || !k.enterprise).map((k) => k.name);
  const { live, missing } = await readLive(ctx, kinds);
  if (missing.length) {
    fail(
      missing.map((p) => `the caller lacks ${p}, needed to read what export writes`),
      'nothing was exported',
    );
  }
  const selectTeam = invocation.options.select as string | undefined;
  const doc = exportDocument(live, { selectTeam });
  const header =
    "# The gateway's management state (gatewayctl export; docs/automation.md). Secrets are references, never values.\n";
  const text =
    outputFormat(invocation) === 'json' ? `${JSON.stringify(doc, null, 2)}\n` : header + (await yamlText(doc));
  if (typeof invocation.options.out === 'string') await writeFile(invocation.options.out, text);
  else process.stdout.write(text);
  return 0;
}

/** Loads the files, reads what they manage and plans; every problem (files, references, scopes) stops it here. */
async function prepare(invocation: Invocation, sending: boolean): Promise<{ ctx: KindContext; plan: Plan }> {
  const files = invocation.options.file as string[] | undefined;
  if (!files?.length) throw new UsageError('give at least one file with -f', invocation.path);
  const loaded = await loadFiles(files);
  if (loaded.problems.length) fail(loaded.problems, 'nothing was written');
  const { ctx, permissions } = await connect(invocation);
  const referenced = new Set<KindName>(loaded.managed);
  for (const d of loaded.desired) for (const ref of kindOf(d.kind).refs?.(d.form) ?? []) referenced.add(ref.kind);
  const { live, missing } = await readLive(ctx, referenced);
  const selectTeam = (invocation.options.select as string | undefined) ?? loaded.select?.team;
  const plan = makePlan(loaded, live, ctx.registry, {
    prune: !!invocation.options.prune,
    enterprise: ctx.enterprise,
    selectTeam,
  });
  // Secrets are read only when they are sent: a diff needs none of them.
  const problems: Problem[] = [...plan.problems, ...(sending ? unreadableSecrets(plan) : [])];
  const scopes = missing.map((p) => `the caller lacks ${p}, needed to read what the files manage`);
  if (permissions !== 'all') {
    for (const [permission, example] of neededPermissions(plan)) {
      if (!permissions.has(permission)) scopes.push(`the caller lacks ${permission}, needed to ${example}`);
    }
  }
  if (problems.length || scopes.length) {
    if (problems.length) process.stderr.write(problemsText(problems));
    if (scopes.length) process.stderr.write(`${scopes.join('\n')}\n`);
    const count = problems.length + scopes.length;
    throw new CommandFailure(`${count} problem${count === 1 ? '' : 's'}; nothing was written`);
  }
  return { ctx, plan };
}

async function printPlan(invocation: Invocation, plan: Plan): Promise<void> {
  const format = outputFormat(invocation);
  if (format === 'table') process.stdout.write(planText(plan));
  else if (format === 'json') process.stdout.write(`${JSON.stringify(planData(plan), null, 2)}\n`);
  else process.stdout.write(await yamlText(planData(plan)));
}

/** `gatewayctl diff`: the plan, nothing written. */
export async function runDiff(invocation: Invocation): Promise<number> {
  const { plan } = await prepare(invocation, false);
  await printPlan(invocation, plan);
  return invocation.options['exit-code'] && plan.steps.length ? 3 : 0;
}

/** `gatewayctl apply`: the plan carried out in dependency order; a refusal stops it and says what was applied. */
export async function runApply(invocation: Invocation): Promise<number> {
  const { ctx, plan } = await prepare(invocation, !invocation.options['dry-run']);
  if (invocation.options['dry-run'] || plan.steps.length === 0) {
    await printPlan(invocation, plan);
    return 0;
  }
  const verb = { create: 'created', update: 'updated', delete: 'deleted' } as const;
  const progress = new LineBuffer(process.stdout);
  const outcome = await execute(ctx, plan.steps, (step) => progress.write(`${verb[step.action]} ${stepLabel(step)}`));
  progress.flush();
  const writeKeys = invocation.options['write-keys'];
  if (outcome.shown.size) {
    if (typeof writeKeys === 'string') {
      const { stringify } = await import('yaml');
      await writeFile(writeKeys, stringify(Object.fromEntries(outcome.shown)), { mode: 0o600 });
      process.stderr.write(`${outcome.shown.size} new virtual key value(s) written to ${writeKeys}\n`);
    } else {
      process.stdout.write('New virtual key values (shown once):\n');
      for (const [label, value] of outcome.shown) process.stdout.write(`  ${label}: ${value}\n`);
    }
  }
  if (outcome.failed) {
    reportFailure(outcome.failed.error);
    process.stderr.write(
      `apply stopped at: ${verb[outcome.failed.step.action].replace(/d$/, '')} ${stepLabel(outcome.failed.step)}\n`,
    );
    process.stderr.write(
      `applied (${outcome.applied.length}):\n${outcome.applied.map((s) => `  ${verb[s.action]} ${stepLabel(s)}\n`).join('')}`,
    );
    process.stderr.write(
      `not applied (${outcome.notApplied.length}):\n${outcome.notApplied.map((s) => `  ${s.action} ${stepLabel(s)}\n`).join('')}`,
    );
    process.stderr.write('Fix the cause and run apply again: it carries out what is left.\n');
    return 1;
  }
  process.stderr.write(`apply: ${outcome.applied.length} change(s) made\n`);
  return 0;
}
