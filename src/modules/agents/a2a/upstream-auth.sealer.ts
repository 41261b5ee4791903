import { Injectable } from '@nestjs/common';
import { GatewayException } from '../../../core/errors/gateway.exception.js';
import { SecretInputError, type SecretInput, type StoredSecret } from '../../../core/secrets/secret-value.js';
import { SecretsService } from '../../../core/secrets/secrets.service.js';
import type { UpstreamAuthDto, UpstreamAuthViewDto, UpstreamTlsDto } from '../dto/upstream-auth.dto.js';
import type { StoredUpstreamAuth, StoredUpstreamOAuth, StoredUpstreamTls } from '../entities/agent.entity.js';
import { tlsPemProblem } from '../../../core/outbound/upstream-tls.js';
import { UNFORWARDABLE_HEADERS, sealForwardableHeaders } from '../../../core/outbound/forwardable-headers.js';

/** Besides what no configured header may name, an agent's headers auth may not set cookies. */
const AGENT_UNFORWARDABLE_HEADERS: ReadonlySet<string> = new Set([...UNFORWARDABLE_HEADERS, 'cookie']);
const TLS_PEM_FIELDS = ['ca_cert_pem', 'client_cert_pem', 'client_key_pem'] as const;

const invalid = (param: string, message: string) => GatewayException.validation(param, `${param} ${message}`);

/**
 * Turns AgentUpstreamAuth input into its stored form (secrets sealed, header names and PEMs checked, each failure a
 * 400 naming the field by path) and stored auth back into the redacted view.
 */
@Injectable()
export class UpstreamAuthSealer {
  constructor(private readonly secrets: SecretsService) {}

  /**
   * Validates and seals one AgentUpstreamAuth. `previous` is the stored block of the same phase: `<REDACTED>`
   * values keep its secrets. `path` prefixes every error param (`runtime_auth`).
   */
  async seal(
    input: UpstreamAuthDto | undefined,
    previous: StoredUpstreamAuth | null,
    path: string,
  ): Promise<StoredUpstreamAuth | null> {
    if (!input) return null;
    const out: StoredUpstreamAuth = { type: input.type };
    switch (input.type) {
      case 'none':
        break;
      case 'headers':
        out.headers = this.sealHeaders(input.headers ?? {}, previous?.headers, `${path}.headers`);
        break;
      case 'oauth': {
        const oauth = input.oauth;
        if (!oauth) throw invalid(`${path}.oauth`, 'is required when type is oauth');
        if (!oauth.token_url && !oauth.discovery_url && !oauth.provider_url) {
          throw invalid(`${path}.oauth`, 'needs one of token_url, discovery_url or provider_url');
        }
        const sealed: StoredUpstreamOAuth = {
          client_id: this.sealSecret(oauth.client_id, previous?.oauth?.client_id, `${path}.oauth.client_id`),
          client_secret: this.sealSecret(
            oauth.client_secret,
            previous?.oauth?.client_secret,
            `${path}.oauth.client_secret`,
          ),
        };
        if (oauth.token_url) sealed.token_url = oauth.token_url;
        if (oauth.discovery_url) sealed.discovery_url = oauth.discovery_url;
        if (oauth.provider_url) sealed.provider_url = oauth.provider_url;
        if (oauth.scopes?.length) sealed.scopes = oauth.scopes;
        if (oauth.resource) sealed.resource = oauth.resource;
        out.oauth = sealed;
        break;
      }
    }
    if (input.security_schemes) out.security_schemes = input.security_schemes;
    if (input.advanced !== undefined) out.advanced = input.advanced;
    if (input.tls) out.tls = await this.sealTls(input.tls, previous?.tls, `${path}.tls`);
    return out;
  }

  private sealHeaders(
    headers: Record<string, SecretInput>,
    previous: Record<string, StoredSecret> | undefined,
    path: string,
  ): Record<string, StoredSecret> {
    const out = sealForwardableHeaders(
      headers,
      previous,
      path,
      (value, prev, param) => this.sealSecret(value, prev, param),
      AGENT_UNFORWARDABLE_HEADERS,
    );
    if (!Object.keys(out).length) throw invalid(path, 'must have at least one header when type is headers');
    return out;
  }

  private async sealTls(
    tls: UpstreamTlsDto,
    previous: StoredUpstreamTls | undefined,
    path: string,
  ): Promise<StoredUpstreamTls> {
    if (tls.client_cert_pem !== undefined && tls.client_key_pem === undefined) {
      throw invalid(`${path}.client_key_pem`, 'is required with client_cert_pem');
    }
    if (tls.client_key_pem !== undefined && tls.client_cert_pem === undefined) {
      throw invalid(`${path}.client_cert_pem`, 'is required with client_key_pem');
    }
    const out: StoredUpstreamTls = {};
    if (tls.insecure_skip_verify !== undefined) out.insecure_skip_verify = tls.insecure_skip_verify;
    const resolved: Partial<Record<(typeof TLS_PEM_FIELDS)[number], string>> = {};
    for (const field of TLS_PEM_FIELDS) {
      const input = tls[field];
      if (input === undefined) continue;
      const stored = this.sealSecret(input, previous?.[field], `${path}.${field}`);
      out[field] = stored;
      // References are resolved now so a PEM that does not parse is refused at registration, not at first use.
      try {
        resolved[field] = await this.secrets.resolve(stored);
      } catch (err) {
        const reason = err instanceof Error ? err.message : 'unresolvable';
        throw invalid(`${path}.${field}`, `could not be resolved: ${reason}`);
      }
    }
    const problem = tlsPemProblem(resolved);
    if (problem) throw invalid(`${path}.${problem.field}`, problem.message);
    return out;
  }

  private sealSecret(input: SecretInput, previous: StoredSecret | undefined, param: string): StoredSecret {
    try {
      return this.secrets.seal(input, previous);
    } catch (err) {
      if (err instanceof SecretInputError) throw invalid(param, err.message);
      throw err;
    }
  }

  /** The response form: every secret as `{ value: "<REDACTED>", ref, type }`. */
  view(auth: StoredUpstreamAuth): UpstreamAuthViewDto {
    const view: UpstreamAuthViewDto = { type: auth.type };
    if (auth.headers) view.headers = this.secrets.viewMap(auth.headers);
    if (auth.oauth) {
      const { client_id, client_secret, ...rest } = auth.oauth;
      view.oauth = {
        ...rest,
        client_id: this.secrets.view(client_id) as NonNullable<ReturnType<SecretsService['view']>>,
        client_secret: this.secrets.view(client_secret) as NonNullable<ReturnType<SecretsService['view']>>,
      };
    }
    if (auth.security_schemes) view.security_schemes = auth.security_schemes;
    if (auth.advanced !== undefined) view.advanced = auth.advanced;
    if (auth.tls) {
      view.tls = {};
      if (auth.tls.insecure_skip_verify !== undefined) view.tls.insecure_skip_verify = auth.tls.insecure_skip_verify;
      for (const field of TLS_PEM_FIELDS) {
        const v = this.secrets.view(auth.tls[field]);
        if (v) view.tls[field] = v;
      }
    }
    return view;
  }
}
