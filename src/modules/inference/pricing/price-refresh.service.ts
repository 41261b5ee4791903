import { Inject, Injectable, Optional, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { Logger } from 'pino';
import { parseDuration } from '../../../core/config/duration.js';
import { GatewayConfig } from '../../../core/config/gateway-config.js';
import { LOGGER } from '../../../core/logging/logging.module.js';
import { OutboundHttpService, readBodyCapped } from '../../../core/outbound/outbound-http.service.js';
import { isProviderList, replacePriceData } from './price-data.js';

/** The package's data file is about 1 MB; anything far larger is not it. */
const MAX_PRICE_DATA_BYTES = 32 * 1024 * 1024;
const DOWNLOAD_TIMEOUT_MS = 30_000;
/** setInterval's longest delay (about 24.8 days); longer ones would fire at once. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Opt-in refresh of the price table (`pricing.refresh`): downloads the package's data at start and every
 * `pricing.refresh_interval`, and swaps it in when it is valid. Any failure keeps the table in use (the bundled data,
 * or the last good download) and logs one warning, without the body. Off by default: no network at all.
 */
@Injectable()
export class PriceRefreshService implements OnApplicationBootstrap, OnApplicationShutdown {
  private timer?: NodeJS.Timeout;
  private inFlight?: Promise<boolean>;

  constructor(
    private readonly config: GatewayConfig,
    private readonly outbound: OutboundHttpService,
    @Optional() @Inject(LOGGER) private readonly logger?: Logger,
  ) {}

  onApplicationBootstrap(): void {
    const { refresh, refresh_interval } = this.config.pricing;
    if (!refresh) return;
    // Not awaited: the bundled table prices requests until the first download lands.
    void this.refresh();
    const every = Math.min(parseDuration(refresh_interval) ?? MAX_TIMER_MS, MAX_TIMER_MS);
    this.timer = setInterval(() => void this.refresh(), every);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }

  /** One download and swap; true when the table was replaced. Never throws. A call during a download joins it. */
  refresh(): Promise<boolean> {
    this.inFlight ??= this.download().finally(() => (this.inFlight = undefined));
    return this.inFlight;
  }

  private async download(): Promise<boolean> {
    let data: unknown;
    try {
      const response = await this.outbound.request(this.config.pricing.refresh_url, {
        timeoutMs: DOWNLOAD_TIMEOUT_MS,
        maxBytes: MAX_PRICE_DATA_BYTES,
        headers: { accept: 'application/json' },
      });
      if (response.status !== 200) {
        await response.body.dump().catch(() => undefined);
        return this.keep(`the price data download answered HTTP ${response.status}`);
      }
      const body = await readBodyCapped(response.body, MAX_PRICE_DATA_BYTES, 'the price data host');
      try {
        data = JSON.parse(body.toString('utf8'));
      } catch {
        return this.keep('the downloaded price data is not JSON');
      }
    } catch (err) {
      return this.keep(`the price data download failed: ${(err as Error).message}`);
    }
    if (!isProviderList(data)) return this.keep('the downloaded price data is not a provider list');
    try {
      replacePriceData(data);
    } catch {
      // The package's message may quote the data; it is not logged.
      return this.keep('the pinned @pydantic/genai-prices package rejected the downloaded price data');
    }
    const models = data.reduce((n, p) => n + p.models.length, 0);
    this.logger?.info({ providers: data.length, models }, 'price table refreshed');
    return true;
  }

  private keep(why: string): false {
    this.logger?.warn(`${why}; the price table in use is kept`);
    return false;
  }
}
