import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Permission } from '../../../core/auth/route-access.decorator.js';
import { ApiErrorResponses } from '../../../core/errors/api-errors.decorator.js';
import { AsyncJobsService } from './async-jobs.service.js';
import { AsyncJobListDto, AsyncJobsQueryDto } from './dto/async-job.dto.js';

/** Operators' view of async jobs: status and timing of every key's jobs, never their requests or results. */
@ApiTags('Async inference')
@Controller('api/async-jobs')
export class AsyncJobsAdminController {
  constructor(private readonly jobs: AsyncJobsService) {}

  @Get()
  @Permission('Logs', 'View')
  @ApiOperation({ operationId: 'listAsyncJobs', summary: 'Async jobs, newest first, with filters' })
  @ApiOkResponse({ type: AsyncJobListDto })
  @ApiErrorResponses(400, 401, 403)
  list(@Query() query: AsyncJobsQueryDto): Promise<AsyncJobListDto> {
    return this.jobs.list(query);
  }
}
