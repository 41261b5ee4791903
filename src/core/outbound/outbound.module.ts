import { Global, Module } from '@nestjs/common';
import { SecretsModule } from '../secrets/secrets.module.js';
import { OutboundHttpService } from './outbound-http.service.js';
import { UpstreamAuthService } from './upstream-auth.service.js';

/**
 * Calling out: the HTTP client with the SSRF address policy, and upstream auth (headers, OAuth client credentials,
 * TLS) for every module that talks to a peer (agents, MCP servers, providers, webhooks).
 */
@Global()
@Module({
  imports: [SecretsModule],
  providers: [OutboundHttpService, UpstreamAuthService],
  exports: [OutboundHttpService, UpstreamAuthService],
})
export class OutboundModule {}
