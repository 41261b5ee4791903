import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../simulator/server.js';
import { freePort } from '../helpers/gateway-process.js';
import { HttpClient } from '../helpers/http.js';
import { buildArgs } from './global-setup.js';
import {
  containerLogs,
  eventually,
  IMAGE,
  IMAGE_SKIP_ENV,
  podman,
  podmanResult,
  removeAll,
  runContainer,
  uniqueName,
  waitHealthy,
} from './podman.js';

const MAX_IMAGE_BYTES = 250_000_000;
/** docker/compose.yaml's stop_grace_period and the chart's terminationGracePeriodSeconds less its preStop pause. */
const GRACE_SECONDS = 30;

/** `node -e <script>` inside the running container (the image has no shell): its stdout. */
function inContainer(container: string, script: string): { code: number | null; stdout: string; stderr: string } {
  return podmanResult(['exec', container, 'node', '-e', script]);
}

describe.skipIf(!IMAGE)(
  `the image on the embedded default${IMAGE ? '' : ` (skipped: ${process.env[IMAGE_SKIP_ENV]})`}`,
  () => {
    const name = uniqueName('embedded');
    const volume = `${name}-data`;
    let sim: Simulator;
    let gw: HttpClient;
    let admin: HttpClient;
    let virtualKey: string;

    beforeAll(async () => {
      sim = await startSimulator();
      const port = await freePort();
      gw = new HttpClient(`http://127.0.0.1:${port}`);
      await podman(['volume', 'create', volume]);
      await runContainer({
        name,
        volumes: [`${volume}:/var/lib/gateway`],
        env: { HOST: '127.0.0.1', PORT: String(port), GATEWAY_OUTBOUND_ALLOW_LOOPBACK: 'true' },
      });
      // A first start: initdb and every migration in the volume.
      await waitHealthy(gw.baseUrl, name);
    });

    afterAll(async () => {
      await removeAll([name], [volume]);
      await sim?.close();
    });

    it('is at most 250 MB, runs as uid 1000 under tini, and carries the OCI labels it was built with', async () => {
      const [image] = JSON.parse(await podman(['image', 'inspect', IMAGE])) as Array<{
        Size: number;
        Config: { User: string; Entrypoint: string[]; Labels: Record<string, string> };
      }>;
      expect(image!.Size).toBeLessThanOrEqual(MAX_IMAGE_BYTES);
      expect(image!.Config.User).toBe('1000:1000');
      expect(image!.Config.Entrypoint.slice(0, 3)).toEqual(['/usr/bin/tini', '--', 'node']);
      const { VERSION, REVISION, SOURCE } = buildArgs();
      expect(image!.Config.Labels).toMatchObject({
        'org.opencontainers.image.version': VERSION,
        'org.opencontainers.image.revision': REVISION,
        'org.opencontainers.image.source': SOURCE,
      });
      expect(REVISION).toMatch(/^[0-9a-f]{40}$/);
      const dockerfile = readFileSync('docker/Dockerfile', 'utf8');
      for (const name of ['VERSION', 'REVISION', 'SOURCE']) {
        expect(dockerfile).toMatch(new RegExp(`^ARG ${name}=""$`, 'm'));
        expect(dockerfile).toContain(`org.opencontainers.image.${name.toLowerCase()}="\${${name}}"`);
      }
      process.stdout.write(`image size: ${image!.Size} bytes (${(image!.Size / 1e6).toFixed(1)} MB)\n`);

      const processes = inContainer(
        name,
        `const fs = require('fs');
       for (const pid of fs.readdirSync('/proc').filter((p) => /^\\d+$/.test(p))) {
         const cmd = fs.readFileSync('/proc/' + pid + '/cmdline', 'utf8').split('\\0').filter(Boolean);
         const uid = /^Uid:\\s+(\\d+)/m.exec(fs.readFileSync('/proc/' + pid + '/status', 'utf8'))[1];
         console.log(pid, uid, cmd.slice(0, 2).join(' '), cmd.at(-1));
       }`,
      );
      expect(processes.code, processes.stderr).toBe(0);
      const lines = processes.stdout.split('\n');
      expect(lines).toContain('1 1000 /usr/bin/tini -- dist/src/main.js');
      expect(lines.some((l) => / 1000 node --max-semi-space-size=8 dist\/src\/main\.js$/.test(l))).toBe(true);
    });

    it('writes nowhere but its volume and tmp: the root file system is read-only', () => {
      const write = (path: string) => inContainer(name, `require('fs').writeFileSync(${JSON.stringify(path)}, 'x')`);
      expect(write('/app/dist/x').stderr).toMatch(/EROFS/);
      expect(write('/x').stderr).toMatch(/EROFS|EACCES/);
      expect(write('/tmp/x').code).toBe(0);
      expect(write('/var/lib/gateway/x').code).toBe(0);
    });

    it('serves the dashboard: / goes to ui/, whose page and scripts come from the image', async () => {
      const root = await fetch(`${gw.baseUrl}/`, { redirect: 'manual' });
      expect(root.status).toBe(302);
      expect(root.headers.get('location')).toBe('ui/');
      const page = await fetch(`${gw.baseUrl}/ui/logs`);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
      const script = (await page.text()).match(/<script[^>]+src="([^"]+\.js)"/)?.[1];
      expect(script, 'the page names its entry script').toBeDefined();
      const entry = await fetch(new URL(script!, `${gw.baseUrl}/ui/`));
      expect(entry.status).toBe(200);
      expect(entry.headers.get('content-type')).toMatch(/javascript/);
    });

    it('is unlocked with the generated setup token, and serves a chat completion through a virtual key', async () => {
      const token = inContainer(
        name,
        `process.stdout.write(require('fs').readFileSync('/var/lib/gateway/setup-token', 'utf8'))`,
      );
      expect(token.stdout).toMatch(/^\S{16,}$/);
      expect((await gw.request('GET', '/api/providers')).status).toBe(401);
      admin = gw.withHeaders({ 'X-Gateway-Setup-Token': token.stdout });
      expect(
        (await admin.post('/api/providers', { provider: 'openai', base_url: `${sim.url}/openai/v1` })).status,
      ).toBe(201);
      const key = await admin.post('/api/providers/openai/keys', { name: 'main', value: 'sk-image-test' });
      expect(key.status, key.text).toBe(201);
      const vk = await admin.post('/api/governance/virtual-keys', { name: 'image-test' });
      expect(vk.status, vk.text).toBe(201);
      virtualKey = vk.body.virtual_key.value as string;

      const chat = await gw.request('POST', '/v1/chat/completions', {
        headers: { Authorization: `Bearer ${virtualKey}` },
        body: { model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'hello from a container' }] },
      });
      expect(chat.status, chat.text).toBe(200);
      expect(chat.body.choices[0].message.content).toBe('echo: hello from a container');
      expect(sim.requests({ family: 'openai' }).map((r) => r.key)).toEqual(['sk-image-test']);

      const logs = await eventually(async () => {
        const res = await admin.request('GET', '/api/logs');
        return res.body.logs?.length ? res : undefined;
      });
      expect(logs.body.logs).toEqual([
        expect.objectContaining({ provider: 'openai', model: 'gpt-4o-mini', status: 'success' }),
      ]);
    });

    it(`drains on SIGTERM: the request in flight is answered, then the container exits 0 within ${GRACE_SECONDS} s`, async () => {
      sim.scenario({ match: { family: 'openai' }, responses: [{ fault: 'delay', delay_ms: 2000 }] });
      const before = sim.requests().length;
      const inFlight = gw.request('POST', '/v1/chat/completions', {
        headers: { Authorization: `Bearer ${virtualKey}` },
        body: { model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'still answered' }] },
      });
      await eventually(async () => (sim.requests().length > before ? true : undefined));
      const started = performance.now();
      await podman(['stop', '-t', String(GRACE_SECONDS), name], (GRACE_SECONDS + 10) * 1000);
      const seconds = (performance.now() - started) / 1000;
      const answered = await inFlight;
      expect(answered.status, answered.text).toBe(200);
      expect(answered.body.choices[0].message.content).toBe('echo: still answered');
      expect(await podman(['inspect', '--format', '{{.State.ExitCode}}', name])).toBe('0');
      expect(seconds).toBeLessThan(GRACE_SECONDS);
      expect(await containerLogs(name)).toMatch(/"msg":"shutdown complete"/);
    });

    it('keeps its data across a restart: the same token, provider, virtual key and log rows', async () => {
      await podman(['start', name]);
      await waitHealthy(gw.baseUrl, name);
      const providers = await admin.request('GET', '/api/providers');
      expect(providers.status).toBe(200);
      const chat = await gw.request('POST', '/v1/chat/completions', {
        headers: { Authorization: `Bearer ${virtualKey}` },
        body: { model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'after the restart' }] },
      });
      expect(chat.status, chat.text).toBe(200);
      const logs = await eventually(async () => {
        const res = await admin.request('GET', '/api/logs');
        return res.body.logs?.length === 3 ? res : undefined;
      });
      expect(logs.body.logs.map((l: { status: string }) => l.status)).toEqual(['success', 'success', 'success']);
    });

    it('refuses to start without the variables a shared database needs, naming each', () => {
      const run = podmanResult([
        'run',
        '--rm',
        '--network',
        'none',
        '-e',
        'DATABASE_URL=postgres://gw@127.0.0.1:1/gw',
        IMAGE,
      ]);
      expect(run.code).toBe(2);
      expect(run.stderr.split('\n').filter((l) => l.startsWith('config: '))).toEqual([
        expect.stringMatching(/^config: GATEWAY_ENCRYPTION_KEY \(encryption_key\) is required /),
        expect.stringMatching(/^config: GATEWAY_SETUP_TOKEN \(setup_token\) is required /),
      ]);
      const worker = podmanResult(['run', '--rm', '--network', 'none', '-e', 'GATEWAY_ROLE=worker', IMAGE]);
      expect(worker.code).toBe(2);
      expect(worker.stderr).toMatch(/^config: DATABASE_URL .*\nconfig: REDIS_URL .*\nconfig: GATEWAY_ENCRYPTION_KEY /m);
    });
  },
);
