import { Module } from '@nestjs/common';
import { InferenceModule } from '../inference.module.js';
import { GenaiFormatController } from './genai-format.controller.js';
import { BedrockFormatController } from './bedrock-format.controller.js';
import { CohereFormatController } from './cohere-format.controller.js';
import { AzureDeploymentsController } from './azure-deployments.controller.js';
import { AnthropicFormatController } from './anthropic-format.controller.js';
import { OpenAiFormatController } from './openai-format.controller.js';

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
