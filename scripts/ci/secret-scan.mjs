#!/usr/bin/env node
// The CI secrets scan (issue 18 §4): every log line the test suites' gateways wrote and every management response the
// tests received, searched for every plain-text secret the tests configured. Zero hits, or exit 1 naming each hit by
// file and line (with the secret masked). The evidence is written by test/helpers/evidence.ts when
// GATEWAY_TEST_EVIDENCE_DIR is set.
//
//   node scripts/ci/secret-scan.mjs <evidence dir>
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** `sk-l…(22 chars)`: enough to find the secret in the tests, not enough to leak it into CI output. */
export function mask(secret) {
  return `${secret.slice(0, 4)}…(${secret.length} chars)`;
}

function lines(path) {
  return readFileSync(path, 'utf8').split('\n');
}

/** Every place a secret appears: `{ file, line, secret (masked), source }`. */
export function scan(dir) {
  if (!existsSync(dir)) throw new Error(`no evidence directory ${dir}`);
  const files = readdirSync(dir).sort();
  /** @type {Map<string, string>} secret to where a test configured it */
  const secrets = new Map();
  for (const name of files.filter((f) => f.startsWith('secrets-'))) {
    for (const line of lines(join(dir, name))) {
      if (!line) continue;
      const { value, source } = JSON.parse(line);
      if (!secrets.has(value)) secrets.set(value, source);
    }
  }
  const hits = [];
  const check = (file, lineNo, text, exempt = []) => {
    for (const [secret, source] of secrets) {
      if (!exempt.includes(secret) && text.includes(secret)) {
        hits.push({ file, line: lineNo, secret: mask(secret), source });
      }
    }
  };
  let logLines = 0;
  let responses = 0;
  for (const name of files) {
    const path = join(dir, name);
    if (name.startsWith('logs-')) {
      lines(path).forEach((text, i) => {
        if (!text) return;
        logLines++;
        check(name, i + 1, text);
      });
    } else if (name.startsWith('responses-')) {
      lines(path).forEach((text, i) => {
        if (!text) return;
        responses++;
        const record = JSON.parse(text);
        check(name, i + 1, record.text, record.exempt ?? []);
      });
    }
  }
  return { secrets: secrets.size, logLines, responses, hits };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const dir = process.argv[2] ?? process.env.GATEWAY_TEST_EVIDENCE_DIR;
  if (!dir) {
    console.error('usage: secret-scan.mjs <evidence dir> (or GATEWAY_TEST_EVIDENCE_DIR)');
    process.exit(2);
  }
  const result = scan(dir);
  console.log(
    `secrets scan: ${result.secrets} secrets, ${result.logLines} log lines, ${result.responses} management responses, ${result.hits.length} hits`,
  );
  for (const hit of result.hits) console.log(`  ${hit.file}:${hit.line}: ${hit.secret} (configured by ${hit.source})`);
  if (result.secrets === 0 || result.logLines === 0) {
    console.error('secrets scan: no evidence recorded (is GATEWAY_TEST_EVIDENCE_DIR passed to the test runs?)');
    process.exit(1);
  }
  process.exit(result.hits.length === 0 ? 0 : 1);
}
