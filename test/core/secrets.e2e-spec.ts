import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Body, Controller, Get, Module, Param, Post, Put } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { getDataSourceToken, InjectDataSource } from '@nestjs/typeorm';
import { Type } from 'class-transformer';
import { IsOptional, IsString, ValidateNested } from 'class-validator';
import type { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Public } from '../../src/core/auth/route-access.decorator.js';
import { loadConfig } from '../../src/core/config/config.loader.js';
import { GatewayException } from '../../src/core/errors/gateway.exception.js';
import { createLogger } from '../../src/core/logging/logger.js';
import { EncryptionKeyError } from '../../src/core/secrets/encryption-key.js';
import { ApiSecretValueProperty, IsSecretValue } from '../../src/core/secrets/secret-value.decorator.js';
import {
  REDACTED,
  SecretInputError,
  parseSecretInput,
  type SecretInput,
  type StoredSecret,
} from '../../src/core/secrets/secret-value.js';
import { SecretsService, type SecretsOptions } from '../../src/core/secrets/secrets.service.js';
import { LogCapture } from '../helpers/log-capture.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { RUN_MODE } from '../helpers/test-env.js';
import { startVaultServer, type VaultServer } from '../helpers/vault-server.js';

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

// --- a test-only feature that stores a SecretValue the way real modules do ---
class ProbeAuthDto {
  @ApiSecretValueProperty({ description: 'Upstream token' })
  @IsSecretValue()
  token: SecretInput;

  @ApiSecretValueProperty({ description: 'Extra headers', map: true, required: false })
  @IsOptional()
  @IsSecretValue({ map: true })
  headers?: Record<string, SecretInput>;
}
class ProbeUpstreamDto {
  @ApiProperty({ type: ProbeAuthDto })
  @ValidateNested()
  @Type(() => ProbeAuthDto)
  auth: ProbeAuthDto;
}
class ProbeSecretDto {
  @ApiProperty()
  @IsString()
  name: string;

  @ApiProperty({ type: ProbeUpstreamDto })
  @ValidateNested()
  @Type(() => ProbeUpstreamDto)
  upstream: ProbeUpstreamDto;
}

interface ProbeRow {
  name: string;
  token: StoredSecret;
  headers: Record<string, StoredSecret> | null;
}

@Controller('secret-probe')
class SecretProbeController {
  constructor(
    private readonly secrets: SecretsService,
    @InjectDataSource() private readonly db: DataSource,
  ) {}

  @Post()
  @Public()
  async create(@Body() body: ProbeSecretDto) {
    const row = this.sealOrReject(body, null);
    await this.db.query('INSERT INTO secret_probe (name, token, headers) VALUES ($1, $2, $3)', [
      row.name,
      JSON.stringify(row.token),
      row.headers && JSON.stringify(row.headers),
    ]);
    return this.render(row);
  }

  @Put(':name')
  @Public()
  async replace(@Param('name') name: string, @Body() body: ProbeSecretDto) {
    const previous = await this.load(name);
    const row = this.sealOrReject({ ...body, name }, previous);
    await this.db.query('UPDATE secret_probe SET token = $2, headers = $3 WHERE name = $1', [
      name,
      JSON.stringify(row.token),
      row.headers && JSON.stringify(row.headers),
    ]);
    return this.render(row);
  }

  /** Digests only: the resolved value itself never travels, so log and body assertions stay meaningful. */
  @Get(':name/resolved')
  @Public()
  async resolved(@Param('name') name: string) {
    const row = await this.load(name);
    const token = await this.secrets.resolve(row.token);
    return { token_sha256: sha256(token) };
  }

  private async load(name: string): Promise<ProbeRow> {
    const rows: ProbeRow[] = await this.db.query('SELECT name, token, headers FROM secret_probe WHERE name = $1', [
      name,
    ]);
    if (!rows[0]) throw new GatewayException(404, 'route_not_found', `No probe ${name}`);
    return rows[0];
  }

  private sealOrReject(body: ProbeSecretDto, previous: ProbeRow | null): ProbeRow {
    let field = 'upstream.auth.token';
    try {
      const token = this.secrets.seal(body.upstream.auth.token, previous?.token);
      field = 'upstream.auth.headers';
      const headers = body.upstream.auth.headers
        ? this.secrets.sealMap(body.upstream.auth.headers, previous?.headers)
        : null;
      return { name: body.name, token, headers };
    } catch (err) {
      if (err instanceof SecretInputError) throw GatewayException.validation(field, `${field}: ${err.message}`);
      throw err;
    }
  }

  private render(row: ProbeRow) {
    return {
      name: row.name,
      upstream: { auth: { token: this.secrets.view(row.token), headers: this.secrets.viewMap(row.headers) } },
    };
  }
}
@Module({ controllers: [SecretProbeController] })
class SecretProbeModule {}

function directService(config: Record<string, unknown>, options?: SecretsOptions, logs = new LogCapture()) {
  // Vault runs on loopback here: Vault is reached through the outbound address policy like every peer.
  const gatewayConfig = loadConfig({ env: {}, overrides: { outbound: { allow_loopback: true }, ...config } });
  return { service: new SecretsService(gatewayConfig, createLogger('debug', logs), options), logs };
}

async function expectUnresolved(promise: Promise<unknown>, ref: string, reason: RegExp, secret?: string) {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(GatewayException);
  const g = err as GatewayException;
  expect(g.status).toBe(502);
  expect(g.code).toBe('secret_unresolved');
  expect(g.message).toMatch(
    new RegExp(`^Secret ${ref.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} could not be resolved: `),
  );
  expect(g.message).toMatch(reason);
  if (secret) expect(g.message).not.toContain(secret);
}

describe(`secrets (${RUN_MODE})`, () => {
  const envName = `GW_TEST_SECRET_${randomBytes(4).toString('hex').toUpperCase()}`;
  const plainSecret = `sk-plain-${randomBytes(8).toString('hex')}`;
  const vaultSecret = `vault-secret-${randomBytes(8).toString('hex')}`;
  let vault: VaultServer;
  let gw: TestApp;
  let secrets: SecretsService;
  let db: DataSource;

  beforeAll(async () => {
    vault = await startVaultServer({
      'secret/app/openai': { api_key: vaultSecret, org: 'org-1' },
      'secret/app/single': { password: 'only-field-secret' },
      'secret/app/defaulted': { value: 'the-value-field', other: 'x' },
      'kv/team/nested/deep': { value: 'deep-secret' },
    });
    gw = await startTestApp({
      extraModules: [SecretProbeModule],
      config: { vault_addr: vault.url, vault_token: vault.token, setup_token: 'setup-token-123456' },
    });
    secrets = gw.app.get(SecretsService);
    db = gw.app.get<DataSource>(getDataSourceToken());
    await db.query('CREATE TABLE secret_probe (name text PRIMARY KEY, token jsonb NOT NULL, headers jsonb)');
  });
  afterAll(async () => {
    delete process.env[envName];
    await gw?.close();
    await vault?.close();
  });

  describe('parsing input', () => {
    it('form A: plain text, env and vault references (with and without #field)', () => {
      expect(parseSecretInput('hunter2')).toEqual({ type: 'plain_text', plain: 'hunter2' });
      expect(parseSecretInput('envy.X')).toEqual({ type: 'plain_text', plain: 'envy.X' });
      expect(parseSecretInput('env.OPENAI_API_KEY')).toEqual({ type: 'env', ref: 'env.OPENAI_API_KEY' });
      expect(parseSecretInput('env._x9')).toEqual({ type: 'env', ref: 'env._x9' });
      expect(parseSecretInput('vault.secret/app/openai')).toEqual({ type: 'vault', ref: 'vault.secret/app/openai' });
      expect(parseSecretInput('vault.secret/app/openai#api_key')).toEqual({
        type: 'vault',
        ref: 'vault.secret/app/openai#api_key',
      });
      expect(parseSecretInput(REDACTED)).toEqual({ type: 'plain_text', redacted: true });
    });

    it('form B: env/vault take ref, plain_text takes value; without type a ref wins', () => {
      expect(parseSecretInput({ type: 'env', ref: 'env.A_B', value: REDACTED })).toEqual({
        type: 'env',
        ref: 'env.A_B',
      });
      expect(parseSecretInput({ type: 'vault', ref: 'vault.kv/x#f', value: '' })).toEqual({
        type: 'vault',
        ref: 'vault.kv/x#f',
      });
      expect(parseSecretInput({ type: 'plain_text', value: 's3cret', ref: '' })).toEqual({
        type: 'plain_text',
        plain: 's3cret',
      });
      expect(parseSecretInput({ type: 'plain_text', value: REDACTED, ref: '' })).toEqual({
        type: 'plain_text',
        redacted: true,
      });
      expect(parseSecretInput({ ref: 'env.X' })).toEqual({ type: 'env', ref: 'env.X' });
      expect(parseSecretInput({ value: 'vault.kv/a' })).toEqual({ type: 'vault', ref: 'vault.kv/a' });
    });

    it.each([
      ['', /must not be empty/],
      ['env.', /env\.VAR_NAME/],
      ['env.9LIVES', /env\.VAR_NAME/],
      ['env.BAD-NAME', /env\.VAR_NAME/],
      ['vault.', /needs a path/],
      ['vault.secret', /mount and a path/],
      ['vault.secret//x', /invalid segment/],
      ['vault.secret/../sys', /invalid segment/],
      ['vault.secret/x#', /field/],
      [42, /must be a string or an object/],
      [null, /must be a string or an object/],
      [['env.X'], /must be a string or an object/],
      [{ type: 'env' }, /ref is required/],
      [{ type: 'env', ref: 'vault.kv/x' }, /not a env reference/],
      [{ type: 'vault', ref: 'env.X' }, /not a vault reference/],
      [{ type: 'plain_text', ref: 'env.X', value: 'v' }, /ref must be empty/],
      [{ type: 'plain_text' }, /value is required/],
      [{ type: 'plain_text', value: '' }, /must not be empty/],
      [{ type: 'ldap', ref: 'x' }, /type must be one of plain_text, env, vault/],
      [{ type: 'env', ref: 'env.X', extra: 1 }, /unknown SecretValue field "extra"/],
      [{ value: 5 }, /value must be a string/],
      [{}, /needs a value or a ref/],
    ])('rejects %j', (input, message) => {
      expect(() => parseSecretInput(input)).toThrow(SecretInputError);
      expect(() => parseSecretInput(input)).toThrow(message);
    });
  });

  describe('sealing', () => {
    it('stores only the reference for env and vault, ciphertext for plain text', () => {
      expect(secrets.seal('env.OPENAI_API_KEY')).toEqual({ type: 'env', ref: 'env.OPENAI_API_KEY' });
      expect(secrets.seal({ type: 'vault', ref: 'vault.secret/app/openai#api_key', value: REDACTED })).toEqual({
        type: 'vault',
        ref: 'vault.secret/app/openai#api_key',
      });
      const sealed = secrets.seal(plainSecret);
      expect(Object.keys(sealed).sort()).toEqual(['ciphertext', 'type']);
      expect(sealed.type).toBe('plain_text');
      expect(sealed.ciphertext).toMatch(/^v1:[A-Za-z0-9+/]+=*$/);
      expect(JSON.stringify(sealed)).not.toContain(plainSecret);
      expect(secrets.decrypt(sealed.ciphertext!)).toBe(plainSecret);
    });

    it('<REDACTED> keeps the previous secret, as a string or as form B; without a previous one it is an error', () => {
      const previous = secrets.seal(plainSecret);
      expect(secrets.seal(REDACTED, previous)).toBe(previous);
      expect(secrets.seal({ value: REDACTED, ref: '', type: 'plain_text' }, previous)).toBe(previous);
      const envPrevious: StoredSecret = { type: 'env', ref: 'env.X' };
      expect(secrets.seal(REDACTED, envPrevious)).toBe(envPrevious);
      // A new value replaces it.
      expect(secrets.seal('env.Y', envPrevious)).toEqual({ type: 'env', ref: 'env.Y' });
      expect(() => secrets.seal(REDACTED)).toThrow(SecretInputError);
      expect(() => secrets.seal({ value: REDACTED, type: 'plain_text' }, null)).toThrow(/already stored/);
    });

    it('sealMap keeps redacted entries by key and names the failing key', () => {
      const previous = secrets.sealMap({ Authorization: plainSecret, 'X-Org': 'env.ORG' });
      const next = secrets.sealMap({ Authorization: REDACTED, 'X-Org': 'env.ORG2' }, previous);
      expect(next.Authorization).toBe(previous.Authorization);
      expect(next['X-Org']).toEqual({ type: 'env', ref: 'env.ORG2' });
      expect(() => secrets.sealMap({ 'X-New': REDACTED }, previous)).toThrow(/^X-New: /);
    });
  });

  describe('resolution', () => {
    it('decrypts plain text', async () => {
      expect(await secrets.resolve(secrets.seal(plainSecret))).toBe(plainSecret);
    });

    it('reads env references from the process environment at use time', async () => {
      const stored = secrets.seal(`env.${envName}`);
      await expectUnresolved(secrets.resolve(stored), `env.${envName}`, new RegExp(`${envName} is not set`));
      process.env[envName] = 'from-env-1';
      expect(await secrets.resolve(stored)).toBe('from-env-1');
      process.env[envName] = 'from-env-2';
      expect(await secrets.resolve(stored)).toBe('from-env-2');
      expect(await secrets.resolveConfigSecret(`env.${envName}`)).toBe('from-env-2');
      expect(await secrets.resolveConfigSecret('plain-admin-password')).toBe('plain-admin-password');
    });

    it('reads vault references over the KV v2 API, with #field, the value field or the only field', async () => {
      secrets.clearVaultCache();
      expect(await secrets.resolve(secrets.seal('vault.secret/app/openai#api_key'))).toBe(vaultSecret);
      expect(await secrets.resolve(secrets.seal('vault.secret/app/openai#org'))).toBe('org-1');
      expect(await secrets.resolve(secrets.seal('vault.secret/app/single'))).toBe('only-field-secret');
      expect(await secrets.resolve(secrets.seal('vault.secret/app/defaulted'))).toBe('the-value-field');
      expect(await secrets.resolve(secrets.seal('vault.kv/team/nested/deep'))).toBe('deep-secret');
      expect(vault.tokensSeen.every((t) => t === vault.token)).toBe(true);
      expect(vault.readCount('kv/team/nested/deep')).toBe(1);
      expect(await secrets.resolveConfigSecret('vault.secret/app/single#password')).toBe('only-field-secret');
    });

    it('caches vault reads for 30 s: a second resolve does not hit the server', async () => {
      secrets.clearVaultCache();
      const before = vault.readCount('secret/app/openai');
      const stored = secrets.seal('vault.secret/app/openai#api_key');
      const [a, b] = await Promise.all([secrets.resolve(stored), secrets.resolve(stored)]);
      expect(await secrets.resolve(stored)).toBe(vaultSecret);
      expect([a, b]).toEqual([vaultSecret, vaultSecret]);
      expect(vault.readCount('secret/app/openai')).toBe(before + 1);
      // A rotated secret is seen only after the cache entry ends.
      vault.put('secret/app/openai', { api_key: 'rotated', org: 'org-1' });
      expect(await secrets.resolve(stored)).toBe(vaultSecret);
      secrets.clearVaultCache();
      expect(await secrets.resolve(stored)).toBe('rotated');
      vault.put('secret/app/openai', { api_key: vaultSecret, org: 'org-1' });
      secrets.clearVaultCache();
    });

    it('vault errors are 502 secret_unresolved naming the ref, never the value, and are not cached', async () => {
      await expectUnresolved(
        secrets.resolve(secrets.seal('vault.secret/app/missing')),
        'vault.secret/app/missing',
        /404/,
      );
      const before = vault.readCount('secret/app/missing');
      await expectUnresolved(
        secrets.resolve(secrets.seal('vault.secret/app/missing')),
        'vault.secret/app/missing',
        /404/,
      );
      expect(vault.readCount('secret/app/missing')).toBe(before + 1);
      await expectUnresolved(
        secrets.resolve(secrets.seal('vault.secret/app/openai#nope')),
        'vault.secret/app/openai#nope',
        /field nope not found/,
        vaultSecret,
      );
      await expectUnresolved(
        secrets.resolve(secrets.seal('vault.secret/app/openai')),
        'vault.secret/app/openai',
        /several fields/,
        vaultSecret,
      );
    });

    it('a wrong vault token is 403 from vault and 502 from us; no vault configured is 502 too', async () => {
      const { service: wrongToken } = directService({
        encryption_key: randomBytes(32).toString('base64'),
        vault_addr: vault.url,
        vault_token: 'not-the-token',
      });
      await expectUnresolved(
        wrongToken.resolve({ type: 'vault', ref: 'vault.secret/app/single' }),
        'vault.secret/app/single',
        /denied access \(403\)/,
        'only-field-secret',
      );
      expect(vault.tokensSeen).toContain('not-the-token');
      const { service: noVault } = directService({ encryption_key: randomBytes(32).toString('base64') });
      await expectUnresolved(
        noVault.resolve({ type: 'vault', ref: 'vault.secret/app/single' }),
        'vault.secret/app/single',
        /vault_addr/,
      );
      const { service: downVault } = directService({
        encryption_key: randomBytes(32).toString('base64'),
        vault_addr: 'http://127.0.0.1:1',
        vault_token: 't',
      });
      await expectUnresolved(downVault.resolve({ type: 'vault', ref: 'vault.kv/a' }), 'vault.kv/a', /request failed/);
    });

    it('the cache entry ends after 30 s', async () => {
      let now = 1_000_000;
      const { service } = directService(
        { encryption_key: randomBytes(32).toString('base64'), vault_addr: vault.url, vault_token: vault.token },
        { now: () => now },
      );
      const before = vault.readCount('secret/app/defaulted');
      const stored: StoredSecret = { type: 'vault', ref: 'vault.secret/app/defaulted' };
      await service.resolve(stored);
      now += 29_999;
      await service.resolve(stored);
      expect(vault.readCount('secret/app/defaulted')).toBe(before + 1);
      now += 2;
      await service.resolve(stored);
      expect(vault.readCount('secret/app/defaulted')).toBe(before + 2);
    });

    it('an injected env source replaces process.env', async () => {
      const { service } = directService(
        { encryption_key: randomBytes(32).toString('base64') },
        { env: { ONLY_HERE: 'injected' } },
      );
      expect(await service.resolve({ type: 'env', ref: 'env.ONLY_HERE' })).toBe('injected');
      await expectUnresolved(service.resolve({ type: 'env', ref: `env.PATH` }), 'env.PATH', /PATH is not set/);
    });
  });

  describe('views', () => {
    it('redacts by default and keeps the reference', () => {
      const plain = secrets.seal(plainSecret);
      expect(secrets.view(plain)).toEqual({ value: REDACTED, ref: '', type: 'plain_text' });
      expect(secrets.view({ type: 'env', ref: 'env.X' })).toEqual({ value: REDACTED, ref: 'env.X', type: 'env' });
      expect(secrets.view({ type: 'vault', ref: 'vault.kv/a#b' })).toEqual({
        value: REDACTED,
        ref: 'vault.kv/a#b',
        type: 'vault',
      });
      expect(secrets.view(null)).toBeUndefined();
      expect(secrets.view(undefined)).toBeUndefined();
      expect(secrets.view(plain, { reveal: true })).toEqual({ value: plainSecret, ref: '', type: 'plain_text' });
      expect(() => secrets.view({ type: 'plain_text', ciphertext: 'v1:AAAA' }, { reveal: true })).toThrow(
        /decryption failed/,
      );
      expect(secrets.viewMap({ A: plain })).toEqual({ A: { value: REDACTED, ref: '', type: 'plain_text' } });
    });
  });

  describe('encryption at rest', () => {
    it('round-trips with a fresh random IV each time', () => {
      const a = secrets.encrypt(plainSecret);
      const b = secrets.encrypt(plainSecret);
      expect(a).not.toBe(b);
      const iv = (c: string) => Buffer.from(c.slice(3), 'base64').subarray(0, 12).toString('hex');
      expect(iv(a)).not.toBe(iv(b));
      expect(secrets.decrypt(a)).toBe(plainSecret);
      expect(secrets.decrypt(b)).toBe(plainSecret);
      expect(secrets.decrypt(secrets.encrypt(''))).toBe('');
      expect(secrets.decrypt(secrets.encrypt('ünïcødé ✓'))).toBe('ünïcødé ✓');
    });

    it('detects tampering and a different key', async () => {
      const sealed = secrets.encrypt(plainSecret);
      const raw = Buffer.from(sealed.slice(3), 'base64');
      for (const index of [0, 12, raw.length - 1]) {
        const copy = Buffer.from(raw);
        copy[index] = copy[index]! ^ 0x01;
        expect(() => secrets.decrypt(`v1:${copy.toString('base64')}`)).toThrow();
      }
      expect(() => secrets.decrypt(`v2:${raw.toString('base64')}`)).toThrow(/version/);
      expect(() => secrets.decrypt('v1:AAAA')).toThrow(/too short/);
      const { service: other } = directService({ encryption_key: randomBytes(32).toString('hex') });
      expect(() => other.decrypt(sealed)).toThrow();
      await expectUnresolved(
        other.resolve({ type: 'plain_text', ciphertext: sealed }),
        '(plain text)',
        /decryption failed/,
        plainSecret,
      );
    });

    it('generates the key file (mode 0600) in the app dir when no encryption_key is set, and reuses it', () => {
      const appDir = join(mkdtempSync(join(tmpdir(), 'gw-key-')), 'nested', 'app');
      const first = directService({ app_dir: appDir, database_url: 'postgres://u@127.0.0.1:1/x' });
      const path = join(appDir, 'encryption.key');
      expect(first.service.keySource).toBe('generated');
      expect(statSync(path).mode & 0o777).toBe(0o600);
      expect(Buffer.from(readFileSync(path, 'utf8').trim(), 'base64')).toHaveLength(32);
      // With a shared database, replicas must be told to share the key.
      const warning = first.logs.records().find((r) => r.level === 'warn');
      expect(String(warning?.msg)).toMatch(/replicas .* same encryption_key/);
      expect(first.logs.text()).not.toContain(readFileSync(path, 'utf8').trim());

      const sealed = first.service.encrypt('survives a restart');
      const second = directService({ app_dir: appDir });
      expect(second.service.keySource).toBe('file');
      expect(second.service.decrypt(sealed)).toBe('survives a restart');
      expect(second.logs.records().filter((r) => r.level === 'warn')).toEqual([]);
    });

    it('a configured encryption_key wins; a malformed one is a clear start-up error naming encryption_key', () => {
      const hex = randomBytes(32).toString('hex');
      const fromHex = directService({ encryption_key: hex }).service;
      const fromB64 = directService({ encryption_key: Buffer.from(hex, 'hex').toString('base64') }).service;
      expect(fromHex.keySource).toBe('config');
      expect(fromB64.decrypt(fromHex.encrypt('same key'))).toBe('same key');
      for (const bad of [
        'short',
        randomBytes(16).toString('base64'),
        'zz'.repeat(32),
        randomBytes(33).toString('hex'),
      ]) {
        // The config loader refuses it first (exit 2 with this line); the service checks again on its own.
        expect(() => directService({ encryption_key: bad })).toThrow(/config: encryption_key: must be 32 bytes/);
        const config = loadConfig({ env: {}, overrides: {} });
        config.encryption_key = bad;
        expect(() => new SecretsService(config, createLogger('silent'))).toThrow(EncryptionKeyError);
        expect(() => new SecretsService(config, createLogger('silent'))).toThrow(/^encryption_key must be 32 bytes/);
      }
    });
  });

  describe('through HTTP (validation, storage, redaction)', () => {
    const post = (body: unknown) => gw.http.post('/secret-probe', body);

    it('400 names the nested field for bad SecretValue input', async () => {
      const cases: Array<[unknown, string]> = [
        [{ token: 'env.BAD-NAME' }, 'upstream.auth.token'],
        [{ token: '' }, 'upstream.auth.token'],
        [{ token: 12 }, 'upstream.auth.token'],
        [{ token: { type: 'vault', ref: 'env.X' } }, 'upstream.auth.token'],
        [{ token: { type: 'plain_text', value: 'v', surprise: 1 } }, 'upstream.auth.token'],
        [{}, 'upstream.auth.token'],
        [{ token: 'ok', headers: { 'X-A': 'vault.onlymount' } }, 'upstream.auth.headers.X-A'],
        [{ token: 'ok', headers: {} }, 'upstream.auth.headers'],
        [{ token: REDACTED }, 'upstream.auth.token'],
      ];
      for (const [auth, param] of cases) {
        const res = await post({ name: 'bad', upstream: { auth } });
        expect(res.status, JSON.stringify(auth)).toBe(400);
        expect(res.body.error.code).toBe('validation_failed');
        expect(res.body.error.param).toBe(param);
        expect(res.body.error.message).toContain(param);
      }
      expect((await db.query(`SELECT count(*)::int AS n FROM secret_probe`))[0].n).toBe(0);
    });

    it('201 answers the redacted view and stores no plain text; <REDACTED> on PUT keeps it', async () => {
      const res = await post({
        name: 'alpha',
        upstream: {
          auth: {
            token: plainSecret,
            headers: {
              'X-Env': `env.${envName}`,
              'X-Vault': { type: 'vault', ref: 'vault.secret/app/openai#api_key' },
            },
          },
        },
      });
      expect(res.status).toBe(201);
      expect(res.body.upstream.auth).toEqual({
        token: { value: REDACTED, ref: '', type: 'plain_text' },
        headers: {
          'X-Env': { value: REDACTED, ref: `env.${envName}`, type: 'env' },
          'X-Vault': { value: REDACTED, ref: 'vault.secret/app/openai#api_key', type: 'vault' },
        },
      });
      expect(res.text).not.toContain(plainSecret);

      const [row] = await db.query(`SELECT token, headers, token::text AS raw FROM secret_probe WHERE name = 'alpha'`);
      expect(row.raw).not.toContain(plainSecret);
      expect(row.token.type).toBe('plain_text');
      expect(row.token.ciphertext).toMatch(/^v1:/);
      expect(row.headers).toEqual({
        'X-Env': { type: 'env', ref: `env.${envName}` },
        'X-Vault': { type: 'vault', ref: 'vault.secret/app/openai#api_key' },
      });

      let resolved = await gw.http.get('/secret-probe/alpha/resolved');
      expect(resolved.status).toBe(200);
      expect(resolved.body.token_sha256).toBe(sha256(plainSecret));

      // PUT echoing the redacted view keeps every stored secret, byte for byte.
      const put = await gw.http.put('/secret-probe/alpha', {
        name: 'alpha',
        upstream: {
          auth: { token: res.body.upstream.auth.token, headers: { 'X-Env': REDACTED, 'X-Vault': REDACTED } },
        },
      });
      expect(put.status).toBe(200);
      const [after] = await db.query(`SELECT token, headers FROM secret_probe WHERE name = 'alpha'`);
      expect(after.token).toEqual(row.token);
      expect(after.headers).toEqual(row.headers);
      resolved = await gw.http.get('/secret-probe/alpha/resolved');
      expect(resolved.body.token_sha256).toBe(sha256(plainSecret));

      // A new value replaces it.
      const replaced = await gw.http.put('/secret-probe/alpha', {
        name: 'alpha',
        upstream: { auth: { token: 'vault.secret/app/single' } },
      });
      expect(replaced.body.upstream.auth.token).toEqual({
        value: REDACTED,
        ref: 'vault.secret/app/single',
        type: 'vault',
      });
      resolved = await gw.http.get('/secret-probe/alpha/resolved');
      expect(resolved.body.token_sha256).toBe(sha256('only-field-secret'));

      expect(gw.logs.text()).not.toContain(plainSecret);
      expect(gw.logs.text()).not.toContain('only-field-secret');
    });

    it('an unresolvable secret is a 502 secret_unresolved without the value', async () => {
      expect((await post({ name: 'beta', upstream: { auth: { token: 'vault.secret/app/gone#k' } } })).status).toBe(201);
      const res = await gw.http.get('/secret-probe/beta/resolved');
      expect(res.status).toBe(502);
      expect(res.body.error.code).toBe('secret_unresolved');
      expect(res.body.error.message).toBe(
        'Secret vault.secret/app/gone#k could not be resolved: vault has no secret at this path (404)',
      );
      expect(res.body.type).toBe('upstream_error');
      expect(res.text).not.toContain(vault.token);
      // The failure is logged with the reference (so the log assertions below look at real lines).
      const line = gw.logs
        .records()
        .find((r) => r.msg === 'secret could not be resolved' && r.ref === 'vault.secret/app/gone#k');
      expect(line).toMatchObject({ level: 'warn', ref: 'vault.secret/app/gone#k' });
    });

    it('documents SecretValue inputs as oneOf string or form B in OpenAPI', async () => {
      const doc = await gw.http.get('/openapi.json');
      const schema = doc.body.components.schemas.ProbeAuthDto;
      expect(schema.properties.token.oneOf.map((s: { type: string }) => s.type)).toEqual(['string', 'object']);
      expect(schema.properties.token.oneOf[1].properties.type.enum).toEqual(['plain_text', 'env', 'vault']);
      expect(schema.properties.headers.additionalProperties.oneOf).toHaveLength(2);
      expect(schema.required).toContain('token');
      expect(schema.required ?? []).not.toContain('headers');
    });

    it('never logs secret values', () => {
      const text = gw.logs.text();
      for (const secret of [plainSecret, vaultSecret, 'from-env-2', 'only-field-secret', vault.token]) {
        expect(text).not.toContain(secret);
      }
    });
  });
});
