import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { GatewayException } from '../../../core/errors/gateway.exception.js';
import { AccessProfileVersionEntity } from '../entities/access-profile-version.entity.js';
import { profileVersionView } from './access-profile-version.recorder.js';
import { AccessProfilesService } from './access-profiles.service.js';
import type { AccessProfileVersionDto } from './dto/access-profile-version.dto.js';

/** The stored versions of a template (written by AccessProfilesService with each change). */
@Injectable()
export class AccessProfileVersionsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly profiles: AccessProfilesService,
  ) {}

  /** Oldest first; 404 `access_profile_not_found` for an unknown template. */
  async list(profileId: number): Promise<AccessProfileVersionDto[]> {
    await this.profiles.get(profileId);
    const rows = await this.dataSource.manager.find(AccessProfileVersionEntity, {
      where: { access_profile_id: profileId },
      order: { version: 'ASC' },
    });
    return rows.map(profileVersionView);
  }

  /** `{version}` as the path gives it: an unknown template 404s first, then an unknown (or malformed) version. */
  async get(profileId: number, rawVersion: string): Promise<AccessProfileVersionDto> {
    await this.profiles.get(profileId);
    const version = /^[1-9]\d{0,9}$/.test(rawVersion) ? Number(rawVersion) : NaN;
    const row =
      version <= 2_147_483_647
        ? await this.dataSource.manager.findOneBy(AccessProfileVersionEntity, { access_profile_id: profileId, version })
        : null;
    if (!row) {
      throw GatewayException.notFound(
        'access_profile_version',
        `Access profile ${profileId} has no version ${rawVersion.slice(0, 64)}`,
      );
    }
    return profileVersionView(row);
  }
}
