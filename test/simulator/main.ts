import { parseArgs } from 'node:util';
import { startSimulator } from './server.js';

// Standalone provider simulator: `npm run sim -- --port 8090 --host 127.0.0.1 [--max-captured 0]`.
const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '8090' },
    host: { type: 'string', default: '127.0.0.1' },
    'max-captured': { type: 'string', default: '10000' },
  },
});

const sim = await startSimulator({
  port: Number(values.port),
  host: values.host,
  maxCaptured: Number(values['max-captured']),
});
process.stdout.write(
  `provider simulator on ${sim.url}: ${['openai/v1', 'azure', 'anthropic', 'gemini'].map((f) => `${sim.url}/${f}`).join(' ')}; control plane ${sim.url}/_sim/\n`,
);

const stop = () => {
  void sim.close().then(() => process.exit(0));
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
