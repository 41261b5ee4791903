import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TestPki {
  caCert: string;
  serverCert: string;
  serverKey: string;
  /** Client certificate (signed by the same CA) and key, for mutual TLS. */
  clientCert: string;
  clientKey: string;
}

/**
 * A throwaway CA with a server certificate for 127.0.0.1/localhost and a client certificate, made with the
 * `openssl` binary (EC P-256 keys, valid two days).
 */
export function generateTestPki(): TestPki {
  const dir = mkdtempSync(join(tmpdir(), 'gw-pki-'));
  const ssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  try {
    ssl(
      'req',
      '-x509',
      ...ec,
      '-keyout',
      'ca.key',
      '-out',
      'ca.pem',
      '-days',
      '2',
      '-subj',
      '/CN=Gateway Test CA',
      '-addext',
      'basicConstraints=critical,CA:TRUE',
      '-addext',
      'keyUsage=critical,keyCertSign,cRLSign',
    );
    const issue = (name: string, subject: string, ext: string) => {
      writeFileSync(join(dir, `${name}.ext`), ext);
      ssl('req', ...ec, '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', subject);
      ssl(
        'x509',
        '-req',
        '-in',
        `${name}.csr`,
        '-CA',
        'ca.pem',
        '-CAkey',
        'ca.key',
        '-CAcreateserial',
        '-out',
        `${name}.pem`,
        '-days',
        '2',
        '-extfile',
        `${name}.ext`,
      );
    };
    issue('server', '/CN=localhost', 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n');
    issue('client', '/CN=gateway-client', 'extendedKeyUsage=clientAuth\n');
    const read = (f: string) => readFileSync(join(dir, f), 'utf8');
    return {
      caCert: read('ca.pem'),
      serverCert: read('server.pem'),
      serverKey: read('server.key'),
      clientCert: read('client.pem'),
      clientKey: read('client.key'),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
