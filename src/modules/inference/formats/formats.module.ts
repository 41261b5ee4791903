import { Module } from '@nestjs/common';
import { InferenceModule } from '../inference.module.js';
import { AnthropicFormatController } from './anthropic/anthropic-format.controller.js';
import { OpenAiFormatController } from './openai/openai-format.controller.js';

/**
 * The provider-format endpoints (and the framework prefixes over them): native shapes in and out, served by the /v1
 * pipeline. One controller per format, listed here.
 */
@Module({
  imports: [InferenceModule],
  controllers: [OpenAiFormatController, AnthropicFormatController],
})
export class FormatsModule {}
