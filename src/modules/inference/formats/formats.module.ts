import { Module } from '@nestjs/common';
import { InferenceModule } from '../inference.module.js';
import { GenaiFormatController } from '../providers/google/format/genai-format.controller.js';
import { BedrockFormatController } from '../providers/bedrock/format/bedrock-format.controller.js';
import { CohereFormatController } from '../providers/cohere/format/cohere-format.controller.js';
import { AzureDeploymentsController } from '../providers/openai/format/azure-deployments.controller.js';
import { AnthropicFormatController } from '../providers/anthropic/format/anthropic-format.controller.js';
import { OpenAiFormatController } from '../providers/openai/format/openai-format.controller.js';

/**
 * The provider-format endpoints (and the framework prefixes over them): native shapes in and out, served by the /v1
 * pipeline. One controller per format, listed here.
 */
@Module({
  imports: [InferenceModule],
  controllers: [
    OpenAiFormatController,
    AzureDeploymentsController,
    GenaiFormatController,
    BedrockFormatController,
    CohereFormatController,
    AnthropicFormatController,
  ],
})
export class FormatsModule {}
