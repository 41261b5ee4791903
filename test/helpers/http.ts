import { recordRequestSecrets, recordResponse, responseSecrets } from './evidence.js';

export interface HttpResult<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  headers?: Record<string, string>;
  body?: unknown;
  /** Sent as-is (for malformed JSON and oversize tests). */
  rawBody?: string | Buffer;
  query?: Record<string, string | number | boolean | undefined>;
  /** Aborts the request (a client-side bound: `AbortSignal.timeout(ms)`). */
  signal?: AbortSignal;
}

/** A small HTTP client over fetch against a running gateway. */
export class HttpClient {
  constructor(
    readonly baseUrl: string,
    private readonly defaultHeaders: Record<string, string> = {},
  ) {}

  withHeaders(headers: Record<string, string>): HttpClient {
    return new HttpClient(this.baseUrl, { ...this.defaultHeaders, ...headers });
  }

  async request<T = any>(method: string, path: string, options: RequestOptions = {}): Promise<HttpResult<T>> {
    const url = new URL(path, this.baseUrl);
    for (const [k, v] of Object.entries(options.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    const headers: Record<string, string> = { ...this.defaultHeaders, ...options.headers };
    let body: string | Buffer | undefined;
    if (options.rawBody !== undefined) body = options.rawBody;
    else if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    const management = url.pathname.startsWith('/api/');
    const response = await fetch(url, { method, headers, body, signal: options.signal });
    const text = await response.text();
    let parsed: unknown = text;
    if ((response.headers.get('content-type') ?? '').includes('json') && text) parsed = JSON.parse(text);
    // The secrets scan's evidence (GATEWAY_TEST_EVIDENCE_DIR; nothing when unset).
    if (management) {
      // Only what the gateway accepted is configured (a refused `Host: example.com` header is no secret).
      if (response.ok) recordRequestSecrets(options.body, url.pathname);
      recordResponse(method, url.pathname, response.status, text, responseSecrets(method, url.pathname, parsed));
    }
    return { status: response.status, headers: response.headers, body: parsed as T, text };
  }

  get<T = any>(path: string, options?: RequestOptions) {
    return this.request<T>('GET', path, options);
  }
  post<T = any>(path: string, body?: unknown, options: RequestOptions = {}) {
    return this.request<T>('POST', path, { ...options, body });
  }
  put<T = any>(path: string, body?: unknown, options: RequestOptions = {}) {
    return this.request<T>('PUT', path, { ...options, body });
  }
  patch<T = any>(path: string, body?: unknown, options: RequestOptions = {}) {
    return this.request<T>('PATCH', path, { ...options, body });
  }
  delete<T = any>(path: string, options?: RequestOptions) {
    return this.request<T>('DELETE', path, options);
  }
}
