import { Injectable } from '@nestjs/common';
import { AuditService } from '../../audit/index.js';
import type {
  AccessProfilePropagationEntity,
  PropagationResult,
} from './entities/access-profile-propagation.entity.js';

export const PROPAGATE_ROUTE = '/api/governance/access-profiles/:profile_id/propagate';

/**
 * The audit entry of a finished propagation, written by the job for the caller who asked for it (the request's own
 * row, from the audit hook, cannot know the counts): `metadata.action` is `propagate`, with the counts.
 */
@Injectable()
export class PropagationAudit {
  constructor(private readonly audit: AuditService) {}

  async completed(row: AccessProfilePropagationEntity, result: PropagationResult): Promise<void> {
    await this.write(row, 200, {
      status: 'completed',
      affected_users: result.affected_users,
      failed_users: result.failed_users,
      skipped_users: result.skipped_users,
      vk_sync_errors: result.vk_sync_errors.length,
    });
  }

  async failed(row: AccessProfilePropagationEntity, error: string): Promise<void> {
    await this.write(row, 500, { status: 'failed', error });
  }

  private async write(row: AccessProfilePropagationEntity, status: number, details: Record<string, unknown>) {
    this.audit.record({
      actor: row.actor,
      auth_method: null,
      permission: 'AccessProfiles:Create',
      method: 'POST',
      route: PROPAGATE_ROUTE,
      path: `/api/governance/access-profiles/${row.access_profile_id}/propagate`,
      target_id: String(row.access_profile_id),
      status_code: status,
      client_address: null,
      metadata: {
        action: 'propagate',
        propagation_id: row.id,
        access_profile_id: row.access_profile_id,
        fields: row.request.fields,
        reset_usage: row.request.reset_usage,
        ...details,
      },
    });
    // Written before the job reports completion, so whoever sees the result can read the entry.
    await this.audit.flush();
  }
}
