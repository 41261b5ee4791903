import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { IMAGE_ENV, IMAGE_SKIP_ENV, podmanInstalled } from './podman.js';

export const IMAGE_TAG = 'localhost/ai-gateway:local';

function git(...args: string[]): string {
  const r = spawnSync('git', args, { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : '';
}

/** The OCI labels the image is built with (docker/Dockerfile's build args), read back by the suites. */
export function buildArgs(): Record<'VERSION' | 'REVISION' | 'SOURCE', string> {
  const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
  return {
    VERSION: version,
    REVISION: git('rev-parse', 'HEAD'),
    SOURCE: process.env.IMAGE_SOURCE || git('remote', 'get-url', 'origin') || `file://${process.cwd()}`,
  };
}

/**
 * Builds the image once for the image suites (`npm run test:image`): the local base image first when it is missing
 * (scripts/image/base-image.sh), then docker/Dockerfile with podman, whose layer cache makes a rebuild of unchanged
 * sources take seconds. Without podman the suites are skipped, and say so.
 */
export default function setup(): void {
  if (!podmanInstalled()) {
    process.env[IMAGE_SKIP_ENV] = 'podman is not installed';
    process.stdout.write('image suites skipped: podman is not installed (the image was neither built nor run)\n');
    return;
  }
  const base = spawnSync('bash', ['scripts/image/base-image.sh'], { stdio: 'inherit' });
  if (base.status !== 0) throw new Error('the base image could not be made (scripts/image/base-image.sh)');
  const started = performance.now();
  // --jobs 2: the compile stage and the production-dependencies stage run side by side.
  const args = [
    'build',
    '--pull=never',
    '--jobs',
    '2',
    '--format',
    'docker',
    '-f',
    'docker/Dockerfile',
    '-t',
    IMAGE_TAG,
  ];
  for (const [name, value] of Object.entries(buildArgs())) {
    // --label too: podman 4.3 (buildah 1.28) reuses a cached LABEL step when only its build arguments changed, which
    // would leave an earlier revision on the image. The Dockerfile's ARG-to-LABEL lines are checked on their own.
    args.push('--build-arg', `${name}=${value}`, '--label', `org.opencontainers.image.${name.toLowerCase()}=${value}`);
  }
  const build = spawnSync('podman', [...args, '.'], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  if (build.status !== 0) {
    throw new Error(`podman build failed:\n${`${build.stdout}\n${build.stderr}`.slice(-6000)}`);
  }
  process.stdout.write(`image ${IMAGE_TAG} built in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
  process.env[IMAGE_ENV] = IMAGE_TAG;
}
