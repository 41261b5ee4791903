import { Global, Module } from '@nestjs/common';
import { OutboundHttpService } from './outbound-http.service.js';

/** The outbound HTTP client with the SSRF address policy, for every module that calls out. */
@Global()
@Module({
  providers: [OutboundHttpService],
  exports: [OutboundHttpService],
})
export class OutboundModule {}
