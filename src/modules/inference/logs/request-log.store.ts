import { Injectable } from '@nestjs/common';
import { AppendLogWriter, type AppendLogKindStats } from '../../../core/append-log/append-log.writer.js';
import { parseDuration } from '../../../core/config/duration.js';
import { GatewayConfig } from '../../../core/config/gateway-config.js';
import { LiveEvents } from '../../../core/live/live-events.js';
import { ExpiredRowsRegistry } from '../../../core/maintenance/expired-rows.service.js';
import { RequestLogDto } from './dto/request-log.dto.js';
import { RequestLogContentEntity } from './entities/request-log-content.entity.js';
import { RequestLogEntity } from './entities/request-log.entity.js';

/** The append-log kinds of request logs (metric labels of `gateway_append_log_*`). */
export const REQUEST_LOG_KIND = 'request_logs';
export const REQUEST_LOG_CONTENT_KIND = 'request_log_contents';

/**
 * Where request log rows go: the core's append-log writer (bounded buffer, batched INSERTs, drops counted), and the
 * retention purge. `append` never waits for the database.
 */
@Injectable()
export class RequestLogStore {
  constructor(
    private readonly writer: AppendLogWriter,
    expiredRows: ExpiredRowsRegistry,
    config: GatewayConfig,
    private readonly live: LiveEvents,
  ) {
    writer.register(REQUEST_LOG_KIND, { target: RequestLogEntity });
    writer.register(REQUEST_LOG_CONTENT_KIND, { target: RequestLogContentEntity });
    // `logs.retention` changes at run time (PUT /api/config): the purge asks for it each time.
    const retentionMs = () => parseDuration(config.logs.retention);
    expiredRows.register({ name: 'request_logs', table: 'request_logs', column: 'timestamp', retentionMs });
    expiredRows.register({
      name: 'request_log_contents',
      table: 'request_log_contents',
      column: 'timestamp',
      retentionMs,
    });
  }

  /** Queues the row (and its content) for writing, and pushes its list view to live-channel subscribers. */
  append(row: RequestLogEntity, content: RequestLogContentEntity | null): void {
    this.writer.append(REQUEST_LOG_KIND, row);
    if (content) this.writer.append(REQUEST_LOG_CONTENT_KIND, content);
    if (this.live.listening) {
      this.live.publish({
        type: 'log',
        action: 'created',
        id: row.id,
        data: RequestLogDto.from(row),
        requires: 'Logs',
      });
    }
  }

  /** Resolves once every row appended so far is written (reads see what was logged before them). */
  async flush(): Promise<void> {
    await Promise.all([this.writer.flush(REQUEST_LOG_KIND), this.writer.flush(REQUEST_LOG_CONTENT_KIND)]);
  }

  /** The request rows' counts since this process started: written, dropped by reason, waiting. */
  stats(): AppendLogKindStats {
    return this.writer.stats(REQUEST_LOG_KIND);
  }
}
