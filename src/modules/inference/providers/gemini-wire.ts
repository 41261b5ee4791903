import type { Json } from './provider-adapter.js';

/** Small helpers shared by the Gemini translation files: JSON narrowing and model names. */

export function isJsonObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The objects of a JSON array (anything else: none). */
export const jsonObjects = (v: unknown): Json[] => (Array.isArray(v) ? (v as unknown[]).filter(isJsonObject) : []);

/** `gemini-2.5-flash` → `models/gemini-2.5-flash`; `models/…` and `tunedModels/…` names are kept. */
export function geminiModelPath(model: string): string {
  return model.startsWith('models/') || model.startsWith('tunedModels/') ? model : `models/${model}`;
}

/** `models/gemini-2.5-flash-001` and `gemini-2.5-flash-001` name the same model. */
export const bareModel = (model: string): string => model.replace(/^models\//, '');
