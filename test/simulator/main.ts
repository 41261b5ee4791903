import { parseArgs } from 'node:util';
import { FAMILY_PATHS, type FaultKind, startSimulator } from './server.js';

// Standalone provider simulator: `npm run sim -- --port 8090 --host 127.0.0.1 [--max-captured 0]`, with a seeded
// random fault mix: `--fault-rate 0.05 [--fault-seed 7] [--fault-kinds rate_limit,server_error,...]`.
const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '8090' },
    host: { type: 'string', default: '127.0.0.1' },
    'max-captured': { type: 'string', default: '10000' },
    'fault-rate': { type: 'string' },
    'fault-seed': { type: 'string', default: '1' },
    'fault-kinds': { type: 'string' },
  },
});

const sim = await startSimulator({
  port: Number(values.port),
  host: values.host,
  maxCaptured: Number(values['max-captured']),
  faultMix:
    values['fault-rate'] === undefined
      ? undefined
      : {
          rate: Number(values['fault-rate']),
          seed: Number(values['fault-seed']),
          kinds: values['fault-kinds']?.split(',') as FaultKind[] | undefined,
        },
});
// Every family it speaks, as a gateway `base_url` (OpenAI's with its version prefix).
const bases = FAMILY_PATHS.map((path) => `${sim.url}${path === '/openai' ? '/openai/v1' : path}`);
process.stdout.write(`provider simulator on ${sim.url}: ${bases.join(' ')}; control plane ${sim.url}/_sim/\n`);

const stop = () => {
  void sim.close().then(() => process.exit(0));
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
