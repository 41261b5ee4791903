import { Injectable } from '@nestjs/common';
import type { Cancellation } from '../../../core/outbound/cancellation.js';
import { OutboundHttpService, readBodyCapped } from '../../../core/outbound/outbound-http.service.js';
import type { AdapterIo } from '../providers/shared/provider-adapter.js';

const MAX_TOKEN_BYTES = 256 * 1024;
const TOKEN_TIMEOUT_MS = 10_000;

/** `AdapterIo` over the gateway's outbound client (the address policy applies to token endpoints too). */
@Injectable()
export class OutboundAdapterIo implements AdapterIo {
  constructor(private readonly outbound: OutboundHttpService) {}

  post(
    url: string,
    headers: Record<string, string>,
    body: string,
    signal?: AbortSignal | Cancellation,
  ): Promise<{ status: number; body: string }> {
    return this.exchange('POST', url, headers, body, signal);
  }

  get(
    url: string,
    headers: Record<string, string>,
    signal?: AbortSignal | Cancellation,
  ): Promise<{ status: number; body: string }> {
    return this.exchange('GET', url, headers, undefined, signal);
  }

  private async exchange(
    method: 'GET' | 'POST',
    url: string,
    headers: Record<string, string>,
    body: string | undefined,
    signal: AbortSignal | Cancellation | undefined,
  ): Promise<{ status: number; body: string }> {
    const response = await this.outbound.request(url, {
      method,
      headers,
      body,
      timeoutMs: TOKEN_TIMEOUT_MS,
      maxBytes: MAX_TOKEN_BYTES,
      signal,
    });
    const text = (await readBodyCapped(response.body, MAX_TOKEN_BYTES, new URL(url).host)).toString('utf8');
    return { status: response.status, body: text };
  }

  now(): number {
    return Date.now();
  }
}
