import { Injectable } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { JOB_TICKET_HEADER } from '../../../core/auth/credential-headers.js';
import { JobTickets } from '../../../core/auth/job-tickets.js';

/** Longest an embedding call of the semantic cache may take before the lookup is given up (the request goes on). */
const EMBED_TIMEOUT_MS = 10_000;

/**
 * Embeds a request's text for the semantic cache through the gateway's own inference path: `POST /v1/embeddings`,
 * injected in-process (no socket) as the request's virtual key with a single-use ticket, the way async jobs replay.
 * So the embedding call is routed, retried, governed, charged to that key and logged like any other.
 */
@Injectable()
export class Embedder {
  constructor(
    private readonly http: HttpAdapterHost,
    private readonly tickets: JobTickets,
  ) {}

  /** The vector, or an Error saying why there is none (an answer that was not 200, or no vector in it). */
  async embed(
    model: string,
    text: string,
    virtualKeyId: string | undefined,
    requestId: string,
  ): Promise<number[] | Error> {
    const ticket = this.tickets.issue({
      jobId: `cache-embedding:${requestId}`,
      virtualKeyId: virtualKeyId ?? null,
      dispatched: () => Promise.resolve(),
    });
    try {
      const fastify = this.http.httpAdapter.getInstance<FastifyInstance>();
      const response = await fastify.inject({
        method: 'POST',
        url: '/v1/embeddings',
        headers: { 'content-type': 'application/json', [JOB_TICKET_HEADER]: ticket },
        payload: JSON.stringify({ model, input: text }),
        signal: AbortSignal.timeout(EMBED_TIMEOUT_MS),
      });
      if (response.statusCode !== 200) return new Error(`embedding call answered ${response.statusCode}`);
      const body = JSON.parse(response.body) as { data?: Array<{ embedding?: unknown }> };
      const vector = body.data?.[0]?.embedding;
      if (
        !Array.isArray(vector) ||
        vector.length === 0 ||
        !vector.every((x) => typeof x === 'number' && Number.isFinite(x))
      ) {
        return new Error('embedding answer had no vector');
      }
      return vector as number[];
    } catch (err) {
      return err instanceof Error ? err : new Error(String(err));
    } finally {
      this.tickets.revoke(ticket);
    }
  }
}
