/** Gemini model names, as the translation files write and read them. */

/** `gemini-2.5-flash` → `models/gemini-2.5-flash`; `models/…` and `tunedModels/…` names are kept. */
export function geminiModelPath(model: string): string {
  return model.startsWith('models/') || model.startsWith('tunedModels/') ? model : `models/${model}`;
}

/** `models/gemini-2.5-flash-001` and `gemini-2.5-flash-001` name the same model. */
export const bareModel = (model: string): string => model.replace(/^models\//, '');
