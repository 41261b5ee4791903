import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { ENV_OVERRIDES } from '../../src/core/config/config.loader.js';
import { helmBinary, render, type K8sObject } from './helm.js';

type Healthcheck = { test?: string[]; interval?: string; timeout?: string; retries?: number; start_period?: string };
type Service = {
  build?: unknown;
  image?: string;
  command?: unknown;
  environment?: Record<string, string>;
  pull_policy?: string;
  healthcheck?: Healthcheck & { disable?: boolean };
  stop_grace_period?: string;
  read_only?: boolean;
  tmpfs?: string[];
};
type Probe = { httpGet: { path: string }; periodSeconds: number; timeoutSeconds: number; failureThreshold: number };
type PodEnv = { name: string; value?: string; valueFrom?: unknown };

const compose = parseYaml(readFileSync('docker/compose.yaml', 'utf8'), { merge: true }) as {
  services: Record<string, Service>;
};
/** What the chart sets through its config file rather than a variable: the config-file key of each variable. */
const configKeyOf = new Map(ENV_OVERRIDES.map((o) => [o.env, o.key]));
/** Process options and secrets: set by variables in both, never through the chart's config block. */
const PROCESS_KEYS = ['role', 'database_url', 'redis_url', 'encryption_key', 'setup_token', 'auth_config.admin_'];
const seconds = (duration: string) => Number(/^(\d+)s$/.exec(duration)?.[1]);
/** `${NAME:?message}`: compose refuses to start without it. */
const required = (value: string | undefined) => /^\$\{\w+:\?.+\}$/.test(value ?? '');

/**
 * docker/compose.yaml and the Helm chart run the same image the same way: the same services and roles, the same
 * variables (or the chart's config-file key of a variable), the same secrets required, the same health check and stop
 * grace. Each difference fails here, so neither drifts alone.
 */
describe('docker/compose.yaml matches the Helm chart', () => {
  let charts: { plain: K8sObject[]; auth: K8sObject[] };
  const pod = (objects: K8sObject[], component: string) =>
    objects.find(
      (o) => o.kind === 'Deployment' && o.spec.template.metadata.labels['app.kubernetes.io/component'] === component,
    )!.spec.template.spec;

  beforeAll(() => {
    helmBinary();
    charts = { plain: render(), auth: render({ set: { 'config.auth_config.is_enabled': 'true' } }) };
  }, 120_000);

  it('runs a gateway and a worker of one image (built once) beside Postgres and Redis, the chart external services', () => {
    expect(Object.keys(compose.services).sort()).toEqual(['gateway', 'postgres', 'redis', 'worker']);
    const deployments = charts.plain.filter((o) => o.kind === 'Deployment');
    expect(deployments.map((d) => d.spec.template.metadata.labels['app.kubernetes.io/component']).sort()).toEqual([
      'gateway',
      'worker',
    ]);
    const { gateway, worker } = compose.services as { gateway: Service; worker: Service };
    expect(
      Object.entries(compose.services)
        .filter(([, s]) => s.build !== undefined)
        .map(([n]) => n),
    ).toEqual(['gateway']);
    expect(worker.image).toBe(gateway.image);
    expect(worker.pull_policy).toBe('never');
    // The image's entrypoint runs the gateway; the role is a variable in both (no command override).
    for (const service of [gateway, worker]) expect(service.command).toBeUndefined();
    for (const d of deployments) expect(d.spec.template.spec.containers[0].command).toBeUndefined();
  });

  for (const component of ['gateway', 'worker'] as const) {
    it(`gives the ${component} the chart's variables, secrets required alike`, () => {
      const service = compose.services[component]!;
      const env = service.environment ?? {};
      const chartEnv = new Map<string, PodEnv>();
      for (const objects of [charts.plain, charts.auth]) {
        for (const e of pod(objects, component).containers[0].env as PodEnv[]) chartEnv.set(e.name, e);
      }
      // The chart mounts its config block as a file; compose runs on the built-in defaults.
      chartEnv.delete('GATEWAY_CONFIG');
      for (const [name, e] of chartEnv) {
        expect(env, `${name} (set by the chart)`).toHaveProperty(name);
        if (e.value !== undefined) expect(env[name], name).toBe(e.value);
      }
      // What the chart takes from a Secret on every render, compose refuses to start without.
      const alwaysSecret = (pod(charts.plain, component).containers[0].env as PodEnv[])
        .filter((e) => e.valueFrom && !['DATABASE_URL', 'REDIS_URL'].includes(e.name))
        .map((e) => e.name);
      expect(
        Object.keys(env)
          .filter((name) => required(env[name]))
          .sort(),
      ).toEqual(alwaysSecret.sort());
      // Anything else compose sets is a setting the chart takes in its config block.
      for (const name of Object.keys(env).filter((n) => !chartEnv.has(n))) {
        const key = configKeyOf.get(name);
        expect(key, `${name} is not a gateway variable`).toBeDefined();
        expect(
          PROCESS_KEYS.some((p) => key!.startsWith(p)),
          `${name} must be set by the chart too`,
        ).toBe(false);
      }
      expect(env.DATABASE_URL).toMatch(/^postgres:\/\//);
      expect(env.REDIS_URL).toMatch(/^redis:\/\//);
    });
  }

  it("checks the gateway's health as the chart's readiness probe does, and gives both the chart's stop grace", () => {
    const gatewayPod = pod(charts.plain, 'gateway');
    const readiness = gatewayPod.containers[0].readinessProbe as Probe;
    const check = compose.services.gateway!.healthcheck!;
    expect(check.test!.join(' ')).toContain(`http://127.0.0.1:8080${readiness.httpGet.path}'`);
    expect(seconds(check.interval!)).toBe(readiness.periodSeconds);
    expect(seconds(check.timeout!)).toBe(readiness.timeoutSeconds);
    expect(check.retries).toBe(readiness.failureThreshold);
    const startup = gatewayPod.containers[0].startupProbe as Probe;
    expect(seconds(check.start_period!)).toBe(startup.periodSeconds * startup.failureThreshold);
    expect(compose.services.worker!.healthcheck?.disable).toBe(true);
    expect(pod(charts.plain, 'worker').containers[0].readinessProbe).toBeUndefined();

    // The chart's grace covers its preStop pause too; compose has no pause.
    const preStopSeconds = (
      parseYaml(readFileSync('deploy/helm/ai-gateway/values.yaml', 'utf8')) as {
        gateway: { preStopSeconds: number };
      }
    ).gateway.preStopSeconds;
    expect(seconds(compose.services.gateway!.stop_grace_period!)).toBe(
      gatewayPod.terminationGracePeriodSeconds - preStopSeconds,
    );
    expect(compose.services.worker!.stop_grace_period).toBe(compose.services.gateway!.stop_grace_period);
  });

  it('runs both read-only with /tmp in memory, as the chart does', () => {
    for (const component of ['gateway', 'worker']) {
      expect(compose.services[component]).toMatchObject({ read_only: true, tmpfs: ['/tmp'] });
      expect(pod(charts.plain, component).containers[0].securityContext.readOnlyRootFilesystem).toBe(true);
    }
  });

  it('checks health in the image as compose and the chart do', () => {
    const dockerfile = readFileSync('docker/Dockerfile', 'utf8');
    const check = compose.services.gateway!.healthcheck!;
    expect(dockerfile).toContain(
      `HEALTHCHECK --interval=${check.interval} --timeout=${check.timeout} --start-period=${check.start_period} --retries=${check.retries}`,
    );
  });
});
