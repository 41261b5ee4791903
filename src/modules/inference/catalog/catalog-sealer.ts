import { Injectable } from '@nestjs/common';
import { GatewayException } from '../../../core/errors/gateway.exception.js';
import { sealForwardableHeaders } from '../../../core/outbound/forwardable-headers.js';
import {
  SecretInputError,
  parseSecretInput,
  type SecretInput,
  type StoredSecret,
} from '../../../core/secrets/secret-value.js';
import { SecretsService } from '../../../core/secrets/secrets.service.js';
import type { StoredAzureKeyConfig, StoredBedrockKeyConfig, StoredVertexKeyConfig } from './catalog-records.js';
import type { AzureKeyConfigDto, BedrockKeyConfigDto, VertexKeyConfigDto } from './dto/key-configs.dto.js';

export const invalid = (param: string, message: string) => GatewayException.validation(param, `${param} ${message}`);

/**
 * Turns provider and key input into stored form: SecretValues sealed (plain text encrypted, references kept as
 * references, `<REDACTED>` keeping the previous secret), header names and URLs checked. Every failure is a 400
 * naming the field by its path; the config file loader reuses it and reports the same paths.
 */
@Injectable()
export class CatalogSealer {
  constructor(private readonly secrets: SecretsService) {}

  secret(input: SecretInput, previous: StoredSecret | null | undefined, param: string): StoredSecret {
    try {
      return this.secrets.seal(input, previous);
    } catch (err) {
      if (err instanceof SecretInputError) throw invalid(param, err.message);
      throw err;
    }
  }

  /** The plain text of a SecretValue input, when it is plain text (to check its content), else undefined. */
  plainText(input: SecretInput): string | undefined {
    try {
      return parseSecretInput(input).plain;
    } catch {
      // Invalid input is reported by `secret()`, which names the field.
      return undefined;
    }
  }

  headers(
    input: Record<string, SecretInput>,
    previous: Record<string, StoredSecret> | undefined,
    path = 'extra_headers',
  ): Record<string, StoredSecret> {
    return sealForwardableHeaders(input, previous, path, (value, prev, param) => this.secret(value, prev, param));
  }

  /** No trailing slash (adapters append paths); no query or fragment (they would end up mid-URL). */
  baseUrl(input: string, param = 'base_url'): string {
    const url = new URL(input);
    if (url.search || url.hash) throw invalid(param, 'must not have a query or a fragment');
    return input.replace(/\/+$/, '');
  }

  azure(input: AzureKeyConfigDto, param = 'azure_key_config'): StoredAzureKeyConfig {
    return {
      endpoint: this.baseUrl(input.endpoint, `${param}.endpoint`),
      ...(input.api_version === undefined ? {} : { api_version: input.api_version }),
      deployments: { ...(input.deployments ?? {}) },
    };
  }

  bedrock(
    input: BedrockKeyConfigDto,
    previous: StoredBedrockKeyConfig | null | undefined,
    param = 'bedrock_key_config',
  ): StoredBedrockKeyConfig {
    const out: StoredBedrockKeyConfig = { region: input.region };
    for (const field of ['access_key', 'secret_key', 'session_token'] as const) {
      const value = input[field];
      if (value !== undefined) out[field] = this.secret(value, previous?.[field], `${param}.${field}`);
    }
    return out;
  }

  vertex(
    input: VertexKeyConfigDto,
    previous: StoredVertexKeyConfig | null | undefined,
    param = 'vertex_key_config',
  ): StoredVertexKeyConfig {
    const field = `${param}.auth_credentials`;
    const plain = this.plainText(input.auth_credentials);
    if (plain !== undefined && !isJsonObject(plain)) {
      throw invalid(field, 'must be a service-account JSON object');
    }
    return {
      project_id: input.project_id,
      region: input.region,
      auth_credentials: this.secret(input.auth_credentials, previous?.auth_credentials, field),
    };
  }
}

function isJsonObject(text: string): boolean {
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed);
  } catch {
    return false;
  }
}
