import type { GatewayClient } from '../../client.js';
import type { Paged } from '../../paging.js';
import { requestBody } from '../body.js';
import { clientFor } from '../context.js';
import { CommandFailure } from '../failure.js';
import { print } from '../output.js';
import { RESOURCES, type ResourceSpec } from '../resource-specs.js';
import { UsageError, type Invocation } from '../spec.js';

/** A client group seen loosely: the generic commands call it by operation name. */
interface LooseGroup {
  list(...args: unknown[]): Paged<Record<string, unknown>>;
  get(...args: unknown[]): Promise<unknown>;
  create(...args: unknown[]): Promise<unknown>;
  update(...args: unknown[]): Promise<unknown>;
  delete(...args: unknown[]): Promise<unknown>;
  rotate(...args: unknown[]): Promise<unknown>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `--scope-id x` → `{ scope_id: 'x' }`, without the options every command takes. */
function listFilters(spec: ResourceSpec, options: Invocation['options']): Record<string, unknown> {
  const filters: Record<string, unknown> = {};
  for (const name of Object.keys(spec.listOptions ?? {})) {
    const value = options[name];
    if (value !== undefined && name !== 'provider') filters[name.replace(/-/g, '_')] = value;
  }
  return filters;
}

/** The path id of `arg`: itself when it looks like an id, else the one object whose name it is. */
async function resolveId(
  group: LooseGroup,
  spec: ResourceSpec,
  arg: string,
  provider?: string,
): Promise<string | number> {
  if (spec.id === 'name') return arg;
  if (spec.id === 'uuid' && UUID.test(arg)) return arg;
  if (spec.id === 'int' && /^\d+$/.test(arg)) return Number(arg);
  const matches: Array<Record<string, unknown>> = [];
  const list = provider ? group.list(provider) : group.list();
  for await (const item of list) if (item[spec.nameField] === arg) matches.push(item);
  if (matches.length === 0) throw new CommandFailure(`no ${spec.noun} named '${arg}'`);
  if (matches.length > 1) throw new CommandFailure(`${matches.length} ${spec.noun}s are named '${arg}': give the id`);
  return matches[0]!.id as string | number;
}

async function runConfig(client: GatewayClient, invocation: Invocation): Promise<number> {
  const op = invocation.path[1];
  if (op === 'get') await print(invocation, await client.config.get());
  else await print(invocation, await client.config.update(await requestBody(invocation)));
  return 0;
}

/** list / get / create / update / delete / rotate of one resource group. */
export async function run(invocation: Invocation): Promise<number> {
  const [command, op] = invocation.path;
  const { client } = await clientFor(invocation);
  if (command === 'config') return runConfig(client, invocation);
  const spec = RESOURCES.find((r) => r.command === command)!;
  const group = (client as unknown as Record<string, LooseGroup>)[spec.group]!;
  const [first, second] = invocation.args;
  if (op === 'list') {
    const items: unknown[] = [];
    const source =
      spec.group === 'keys'
        ? group.list(invocation.options.provider)
        : group.list(listFilters(spec, invocation.options));
    for await (const item of source) items.push(item);
    await print(invocation, items, spec.columns);
    return 0;
  }
  if (op === 'create') {
    const body = await requestBody(invocation);
    await print(invocation, spec.underProvider ? await group.create(first, body) : await group.create(body));
    return 0;
  }
  if (!first) throw new UsageError(`missing the ${spec.noun}`, invocation.path);
  const provider = spec.underProvider ? first : undefined;
  const id = await resolveId(group, spec, spec.underProvider ? second! : first, provider);
  const target = provider ? [provider, id] : [id];
  switch (op) {
    case 'get':
      await print(invocation, await group.get(...target));
      return 0;
    case 'update':
      await print(invocation, await group.update(...target, await requestBody(invocation)));
      return 0;
    case 'delete':
      await print(invocation, await group.delete(...target));
      return 0;
    case 'rotate': {
      const grace = invocation.options['grace-period'] as string | undefined;
      await print(invocation, await group.rotate(id, grace ? { grace_period: grace } : {}));
      return 0;
    }
    case 'list':
    case 'create':
    case undefined:
    default:
      throw new UsageError(`unknown operation '${op}'`, invocation.path);
  }
}
