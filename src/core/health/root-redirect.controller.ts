import { Controller, Get, Redirect } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Public } from '../auth/route-access.decorator.js';

/** `GET /` sends a browser to the API documentation. Not an API operation, so not in the OpenAPI document. */
@ApiExcludeController()
@Controller()
export class RootRedirectController {
  @Get()
  @Public()
  @Redirect('/docs', 302)
  root(): void {}
}
