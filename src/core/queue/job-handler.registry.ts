import { Injectable, type OnModuleInit } from '@nestjs/common';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import { jobNames, type JobName } from './job-catalogue.js';
import { JOB_HANDLER_METADATA, type JobContext } from './job-handler.decorator.js';

type BoundHandler = (payload: unknown, context: JobContext) => Promise<unknown>;

interface FoundHandler {
  name: string;
  owner: string;
  fn: BoundHandler;
}

/** Finds `@JobHandler` methods at bootstrap and checks every defined job (job-catalogue.ts) has exactly one. */
@Injectable()
export class JobHandlerRegistry implements OnModuleInit {
  private readonly handlers = new Map<JobName, BoundHandler>();

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly reflector: Reflector,
  ) {}

  onModuleInit(): void {
    const found: FoundHandler[] = [];
    for (const wrapper of this.discovery.getProviders()) {
      const instance: unknown = wrapper.instance;
      // Request-scoped or not-yet-built providers have no stable instance to bind.
      if (!instance || typeof instance !== 'object' || !wrapper.isDependencyTreeStatic()) continue;
      const proto = Object.getPrototypeOf(instance) as object | null;
      if (!proto) continue;
      for (const method of this.scanner.getAllMethodNames(proto)) {
        const fn = (instance as Record<string, unknown>)[method];
        if (typeof fn !== 'function') continue;
        const name = this.reflector.get<string | undefined>(JOB_HANDLER_METADATA, fn as () => unknown);
        if (!name) continue;
        found.push({
          name,
          owner: `${instance.constructor.name}.${method}`,
          fn: (fn as BoundHandler).bind(instance),
        });
      }
    }
    this.load(found);
  }

  /** Exposed for unit checks: validates a set of handlers against the defined jobs and installs them. */
  load(found: FoundHandler[]): void {
    const known = new Set<string>(jobNames());
    const byName = new Map<string, FoundHandler[]>();
    for (const handler of found) {
      if (!known.has(handler.name)) {
        throw new Error(`@JobHandler(${handler.name}) on ${handler.owner}: no such job defined`);
      }
      byName.set(handler.name, [...(byName.get(handler.name) ?? []), handler]);
    }
    const missing = [...known].filter((name) => !byName.has(name));
    if (missing.length > 0) throw new Error(`no @JobHandler for job(s): ${missing.join(', ')}`);
    for (const [name, list] of byName) {
      if (list.length > 1) {
        throw new Error(`job ${name} has ${list.length} handlers: ${list.map((h) => h.owner).join(', ')}`);
      }
    }
    this.handlers.clear();
    for (const [name, list] of byName) this.handlers.set(name as JobName, list[0]!.fn);
  }

  get(name: string): BoundHandler {
    const handler = this.handlers.get(name as JobName);
    if (!handler) throw new Error(`no handler for job ${name}`);
    return handler;
  }
}
