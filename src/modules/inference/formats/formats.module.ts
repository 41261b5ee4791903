import { Module } from '@nestjs/common';
import { InferenceModule } from '../inference.module.js';
import { GenaiFormatController } from './genai/genai-format.controller.js';
import { BedrockFormatController } from './bedrock/bedrock-format.controller.js';
import { CohereFormatController } from './cohere/cohere-format.controller.js';
import { AzureDeploymentsController } from './openai/azure-deployments.controller.js';
import { AnthropicFormatController } from './anthropic/anthropic-format.controller.js';
import { OpenAiFormatController } from './openai/openai-format.controller.js';

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
