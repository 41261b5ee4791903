import { createHash } from 'node:crypto';
import { Injectable, type OnModuleInit } from '@nestjs/common';
import { plainToInstance, Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, ValidateNested, validateSync } from 'class-validator';
import { ConfigError } from '../../../core/config/config.loader.js';
import { GatewayConfig } from '../../../core/config/gateway-config.js';
import { GatewayException } from '../../../core/errors/gateway.exception.js';
import { PROVIDER_IDS, type ProviderId } from '../providers/provider-ids.js';
import { firstProblem } from '../../../core/errors/validation.js';
import { IsOptionalNonNull } from '../../../core/validation/field.decorators.js';
import type { KeyRecord, ProviderRecord, StoredNetworkConfig } from './catalog-records.js';
import { CatalogSealer } from './catalog-sealer.js';
import { CreateProviderKeyDto } from './dto/provider-key.dto.js';
import { UpdateProviderDto } from './dto/provider.dto.js';
import { sealKeyInput } from './key-input.js';
import { sealProviderInput } from './provider-input.js';

/** Most keys one provider may declare in the file. */
const MAX_CONFIG_KEYS = 1000;

/** One `providers.<id>` entry of the config file: the API's provider settings plus its keys. */
class ConfigProviderEntry extends UpdateProviderDto {
  @IsOptionalNonNull()
  @IsArray()
  @ArrayMaxSize(MAX_CONFIG_KEYS)
  @ValidateNested({ each: true })
  @Type(() => CreateProviderKeyDto)
  keys?: CreateProviderKeyDto[];
}

export interface ConfigProvider {
  provider: ProviderRecord;
  keys: KeyRecord[];
}

/**
 * The id of a key declared in the config file: a UUID derived from provider and key name, so every replica reading
 * the same file agrees on it (and pins by `x-gateway-api-key-id` survive restarts).
 */
export function configKeyId(provider: ProviderId, name: string): string {
  const hash = createHash('sha256').update(`inference.provider-key\u0000${provider}\u0000${name}`).digest();
  // RFC 9562 layout: version 5 (name-based) and the RFC variant, so it reads as any other UUID.
  hash[6] = (hash[6]! & 0x0f) | 0x50;
  hash[8] = (hash[8]! & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** `providers.openai.keys[0].value must be …` → `providers.openai.keys[0].value: must be …` (the loader's form). */
function configLine(param: string, message: string): string {
  const rest = message.startsWith(param) ? message.slice(param.length).trimStart() : message;
  return `${param}: ${rest}`;
}

/**
 * Validates and seals the `providers:` block of the config file with the API's own validators and rules, so a file
 * accepts exactly what the API does. Problems are collected as config lines (`providers.<id>.<path>: <problem>`)
 * and thrown together as one ConfigError: the process refuses to start (exit 2).
 */
export function loadConfigProviders(
  raw: unknown,
  sealer: CatalogSealer,
  loadedAt: Date,
  networkDefaults: Readonly<StoredNetworkConfig>,
): ConfigProvider[] {
  if (raw === undefined || raw === null) return [];
  if (!isPlainObject(raw)) throw new ConfigError(['providers: must be an object mapping provider ids to settings']);
  const problems: string[] = [];
  const out: ConfigProvider[] = [];
  for (const [id, entry] of Object.entries(raw)) {
    const prefix = `providers.${id}`;
    if (!PROVIDER_IDS.includes(id as ProviderId)) {
      problems.push(`${prefix}: is not a provider id (one of ${PROVIDER_IDS.join(', ')})`);
      continue;
    }
    if (!isPlainObject(entry)) {
      problems.push(`${prefix}: must be an object { base_url?, extra_headers?, network_config?, keys? }`);
      continue;
    }
    const dto = plainToInstance(ConfigProviderEntry, entry);
    const errors = validateSync(dto, { whitelist: true, forbidNonWhitelisted: true, stopAtFirstError: true });
    if (errors.length) {
      for (const error of errors) {
        const problem = firstProblem([error], prefix);
        if (problem) problems.push(configLine(problem.param, problem.message));
      }
      continue;
    }
    const sealed = sealEntry(id as ProviderId, dto, sealer, loadedAt, networkDefaults, (param, reason) =>
      problems.push(`${prefix}${param}: ${reason}`),
    );
    if (sealed) out.push(sealed);
  }
  if (problems.length) throw new ConfigError(problems);
  return out;
}

/**
 * Seals one validated entry. Each problem is reported with its path relative to the entry (`.keys[0].value`) and
 * its reason; the entry is then left out (undefined).
 */
function sealEntry(
  provider: ProviderId,
  entry: ConfigProviderEntry,
  sealer: CatalogSealer,
  loadedAt: Date,
  networkDefaults: Readonly<StoredNetworkConfig>,
  report: (param: string, reason: string) => void,
): ConfigProvider | undefined {
  /** Runs one sealing step; a 400 becomes a reported problem under `path`. */
  const attempt = <T>(path: string, step: () => T): T | undefined => {
    try {
      return step();
    } catch (err) {
      if (!(err instanceof GatewayException) || err.param === undefined) throw err;
      const reason = err.message.startsWith(err.param) ? err.message.slice(err.param.length).trimStart() : err.message;
      report(`${path}.${err.param}`, reason);
      return undefined;
    }
  };
  const settings = attempt('', () => sealProviderInput(sealer, entry, null, networkDefaults));
  const keys: KeyRecord[] = [];
  const names = new Set<string>();
  let failed = settings === undefined;
  (entry.keys ?? []).forEach((input, i) => {
    const path = `.keys[${i}]`;
    if (names.has(input.name)) {
      report(`${path}.name`, `"${input.name}" is declared twice for ${provider} (key names are unique per provider)`);
      failed = true;
      return;
    }
    names.add(input.name);
    const sealed = attempt(path, () => sealKeyInput(sealer, provider, input, null));
    if (!sealed) {
      failed = true;
      return;
    }
    keys.push({
      ...sealed,
      id: configKeyId(provider, input.name),
      provider,
      source: 'config',
      created_at: loadedAt,
      updated_at: loadedAt,
    });
  });
  if (failed || !settings) return undefined;
  return {
    provider: { provider, ...settings, source: 'config', created_at: loadedAt, updated_at: loadedAt },
    keys,
  };
}

/** The providers and keys of the config file, validated and sealed once at start (read-only through the API). */
@Injectable()
export class ConfigProviders implements OnModuleInit {
  private byId = new Map<ProviderId, ConfigProvider>();

  constructor(
    private readonly config: GatewayConfig,
    private readonly sealer: CatalogSealer,
  ) {}

  /** Throws ConfigError on any problem: the app does not start. */
  onModuleInit(): void {
    const loaded = loadConfigProviders(
      this.config.providers,
      this.sealer,
      new Date(),
      this.config.inference.network_defaults,
    );
    this.byId = new Map(loaded.map((p) => [p.provider.provider, p]));
  }

  get(provider: ProviderId): ConfigProvider | undefined {
    return this.byId.get(provider);
  }

  list(): ConfigProvider[] {
    return [...this.byId.values()];
  }
}
