import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Permission } from '../../core/auth/route-access.decorator.js';
import { AuditService } from './audit.service.js';
import { AuditLogListDto } from './dto/audit-log.dto.js';
import { ListAuditLogsQueryDto } from './dto/list-audit-logs.query.dto.js';

@ApiTags('Audit logs')
@Controller('api/audit-logs')
export class AuditController {
  constructor(private readonly audit: AuditService) {}

  @Get()
  @Permission('AuditLogs', 'View')
  @ApiOperation({
    operationId: 'listAuditLogs',
    summary: 'Management writes (allowed and refused), newest first, with filters and paging',
  })
  @ApiOkResponse({ type: AuditLogListDto })
  list(@Query() query: ListAuditLogsQueryDto): Promise<AuditLogListDto> {
    return this.audit.list(query);
  }
}
