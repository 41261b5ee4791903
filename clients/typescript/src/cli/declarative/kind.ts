import type { GatewayClient } from '../../client.js';
import type { Obj } from './values.js';

export type KindName =
  | 'config'
  | 'plugins'
  | 'providers'
  | 'provider_keys'
  | 'provider_governance'
  | 'customers'
  | 'teams'
  | 'mcp_clients'
  | 'virtual_keys'
  | 'model_configs'
  | 'routing_rules'
  | 'pricing_overrides'
  | 'access_profiles'
  | 'circuit_breakers'
  | 'webhooks';

/** A reference from one object to another by name (checked before anything is written). */
export interface Ref {
  kind: KindName;
  name: string;
  /** The referring field (for the error's path). */
  field: (string | number)[];
}

/** Ids and names of live and newly created objects, per kind (what references resolve through). */
export class Registry {
  private readonly ids = new Map<KindName, Map<string, string | number>>();
  private readonly names = new Map<KindName, Map<string, string>>();

  set(kind: KindName, id: string | number, name: string): void {
    if (!this.ids.has(kind)) this.ids.set(kind, new Map());
    if (!this.names.has(kind)) this.names.set(kind, new Map());
    this.ids.get(kind)!.set(name, id);
    this.names.get(kind)!.set(String(id), name);
  }

  forget(kind: KindName, name: string): void {
    const id = this.ids.get(kind)?.get(name);
    this.ids.get(kind)?.delete(name);
    if (id !== undefined) this.names.get(kind)?.delete(String(id));
  }

  has(kind: KindName, name: string): boolean {
    return this.ids.get(kind)?.has(name) ?? false;
  }

  /** The id of a named object; throws when unknown (references are checked before any write). */
  id(kind: KindName, name: string): string | number {
    const id = this.ids.get(kind)?.get(name);
    if (id === undefined) throw new Error(`unknown ${kind} '${name}'`);
    return id;
  }

  /** The name of an id, or the id itself when it names nothing known. */
  name(kind: KindName, id: string | number | null | undefined): string | null {
    if (id === null || id === undefined) return null;
    return this.names.get(kind)?.get(String(id)) ?? String(id);
  }
}

/** Sends a CLI-resolved secret's value (read from the CLI's environment or a file) or passes a reference on. */
export type SecretResolver = (value: unknown) => unknown;

export interface KindContext {
  client: GatewayClient;
  registry: Registry;
  resolveSecrets: SecretResolver;
  enterprise: boolean;
}

/** How one kind of object is read, written in the file, compared and written back. */
export interface Kind {
  name: KindName;
  noun: string;
  /** The permission resource of its routes. */
  resource: string;
  enterprise?: boolean;
  /** Updated in place only: no create, no delete (config, plugins). */
  fixed?: boolean;
  /** The operation of the route that creates one, when it is not `Create` (provider governance is a PUT). */
  createOperation?: 'Update';
  /** PUT replaces the whole object: an update sends every field. */
  replace?: boolean;
  /** The object's identity in the file and on the gateway (its name, or what makes it unique). */
  identity(form: Obj): string;
  /** The registry name other objects refer to it by (default: its identity). */
  refName?(form: Obj): string;
  /** The live objects, as the API answers them. */
  list(ctx: KindContext): Promise<Obj[]>;
  idOf(raw: Obj): string | number;
  /** The registry name of a raw object, before conversion (for references of other kinds). */
  rawName(raw: Obj): string;
  /** The file form of a live object (references by name, secrets as references, no ids or usage). */
  toFile(raw: Obj, registry: Registry): Obj;
  /** What it refers to. */
  refs?(form: Obj): Ref[];
  /** The team owning it, for `select` (undefined: owned by none). */
  ownerTeam?(form: Obj, desiredAndLive: (kind: KindName, name: string) => Obj | undefined): string | undefined;
  create?(ctx: KindContext, form: Obj): Promise<{ id: string | number; shown?: Obj }>;
  update(ctx: KindContext, id: string | number, changed: Obj, desired: Obj, live: Obj): Promise<void>;
  delete?(ctx: KindContext, id: string | number, live: Obj): Promise<void>;
}
