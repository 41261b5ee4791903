import { countWords, newId } from '../answer.js';
import {
  dataFrame,
  isObj,
  jsonReply,
  type Operation,
  type Reply,
  type SimRequest,
  SSE_HEADERS,
  type StreamReply,
} from '../family.js';
import { isSimFile, type SimFile } from '../multipart.js';
import { badBody, type Flavor, openaiError, successHeaders } from './openai-wire.js';

type Obj = Record<string, unknown>;

/** Audio content-types of OpenAI speech's `response_format`. */
const AUDIO_TYPES: Readonly<Record<string, string>> = {
  mp3: 'audio/mpeg',
  opus: 'audio/opus',
  aac: 'audio/aac',
  flac: 'audio/flac',
  wav: 'audio/wav',
  pcm: 'audio/pcm',
};

/** One transparent PNG pixel: the image every image operation answers with. */
export const SIM_PNG_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

/**
 * Deterministic "audio": an ID3 tag header followed by the spoken text, so a test can check both that bytes came
 * through unchanged and what was asked. ASCII up to the text, so the simulator's string body keeps the bytes.
 */
export function simAudio(text: string): string {
  return `ID3\u0004\u0000\u0000\u0000\u0000\u0000\u0000SIMAUDIO:${text}`;
}

export function binaryReply(contentType: string, body: string, headers: Record<string, string>): Reply {
  return {
    status: 200,
    headers: { ...headers, 'content-type': contentType, 'content-length': String(Buffer.byteLength(body)) },
    body,
  };
}

/** Bytes of audio per `speech.audio.delta` event of a streamed answer. */
const SPEECH_DELTA_BYTES = 16;

/**
 * `stream_format: "sse"`: the audio in base64 `speech.audio.delta` events, then `speech.audio.done` with the usage
 * (input: one token per word; output: one per audio byte). No `event:` lines and no `[DONE]`, as OpenAI sends it.
 */
function speechEvents(audio: Buffer, input: string): StreamReply {
  const frames: string[] = [];
  for (let at = 0; at < audio.length; at += SPEECH_DELTA_BYTES) {
    const chunk = audio.subarray(at, at + SPEECH_DELTA_BYTES).toString('base64');
    frames.push(dataFrame(JSON.stringify({ type: 'speech.audio.delta', audio: chunk }), '\n'));
  }
  const usage = { input_tokens: countWords(input), output_tokens: audio.length, total_tokens: 0 };
  usage.total_tokens = usage.input_tokens + usage.output_tokens;
  frames.push(dataFrame(JSON.stringify({ type: 'speech.audio.done', usage }), '\n'));
  const error = { type: 'error', error: { message: 'The server had an error while processing your request.' } };
  return { headers: { ...SSE_HEADERS }, frames, errorFrame: dataFrame(JSON.stringify(error), '\n') };
}

/** `POST /v1/audio/speech` `{model, input, voice, response_format, stream_format}` → audio bytes, or SSE events. */
export function speechOperation(flavor: Flavor, req: SimRequest): Operation | Reply {
  const bad = badBody(flavor, req, flavor === 'openai' ? ['model', 'input', 'voice'] : ['input', 'voice']);
  if (bad) return bad;
  const body = req.body as Obj;
  if (flavor === 'openai' && typeof body.model === 'string') req.model = body.model;
  const format = typeof body.response_format === 'string' ? body.response_format : 'mp3';
  const type = AUDIO_TYPES[format];
  if (!type) return openaiError(flavor, { status: 400, message: `Invalid response_format '${format}'.` });
  if (body.stream_format === 'sse') {
    // The tts-1 models answer audio only.
    if (String(body.model).startsWith('tts-1')) {
      return openaiError(
        flavor,
        { status: 400, message: "stream_format 'sse' is not supported for tts-1." },
        'stream_format',
      );
    }
    req.stream = true;
    const audio = Buffer.from(simAudio(String(body.input)), 'latin1');
    return () => speechEvents(audio, String(body.input));
  }
  return () => binaryReply(type, simAudio(String(body.input)), successHeaders(flavor));
}

/** The transcript the simulator "hears" in a file: its name and size. */
export function transcriptOf(file: SimFile): string {
  return `transcript of ${file.filename} (${file.size} bytes)`;
}

/** `POST /v1/audio/transcriptions` (multipart `file`, `model`, `response_format`). */
export function transcriptionOperation(flavor: Flavor, req: SimRequest): Operation | Reply {
  const bad = badBody(flavor, req, flavor === 'openai' ? ['model', 'file'] : ['file']);
  if (bad) return bad;
  const body = req.body as Obj;
  if (!isSimFile(body.file)) return openaiError(flavor, { status: 400, message: "'file' must be a file upload." });
  if (flavor === 'openai' && typeof body.model === 'string') req.model = body.model;
  const file = body.file;
  const text = transcriptOf(file);
  const format = typeof body.response_format === 'string' ? body.response_format : 'json';
  // whisper-1 reports seconds; the gpt-4o transcribe models report tokens.
  const usage = String(body.model).startsWith('whisper')
    ? { type: 'duration', seconds: 2 }
    : {
        type: 'tokens',
        input_tokens: Math.ceil(file.size / 10),
        output_tokens: countWords(text),
        total_tokens: Math.ceil(file.size / 10) + countWords(text),
        input_token_details: { audio_tokens: Math.ceil(file.size / 10), text_tokens: 0 },
      };
  return () => {
    const headers = successHeaders(flavor);
    switch (format) {
      case 'text':
        return binaryReply('text/plain; charset=utf-8', `${text}\n`, headers);
      case 'srt':
        return binaryReply('text/plain; charset=utf-8', `1\n00:00:00,000 --> 00:00:02,000\n${text}\n`, headers);
      case 'vtt':
        return binaryReply('text/plain; charset=utf-8', `WEBVTT\n\n00:00:00.000 --> 00:00:02.000\n${text}\n`, headers);
      case 'verbose_json':
        return jsonReply(
          200,
          {
            task: 'transcribe',
            language: 'english',
            duration: 2,
            text,
            segments: [{ id: 0, start: 0, end: 2, text }],
            usage: { type: 'duration', seconds: 2 },
          },
          headers,
        );
      default:
        return jsonReply(200, { text, usage }, headers);
    }
  };
}

type ImageOp = 'generations' | 'edits' | 'variations';

/** `POST /v1/images/{generations|edits|variations}`: `n` images as b64_json or url; gpt-image-1 reports tokens. */
export function imagesOperation(flavor: Flavor, req: SimRequest, op: ImageOp): Operation | Reply {
  const need = op === 'generations' ? ['prompt'] : op === 'edits' ? ['image', 'prompt'] : ['image'];
  const bad = badBody(flavor, req, flavor === 'openai' ? ['model', ...need] : need);
  if (bad) return bad;
  const body = req.body as Obj;
  if (flavor === 'openai' && typeof body.model === 'string') req.model = body.model;
  const images = (Array.isArray(body.image) ? body.image : [body.image]).filter(isSimFile);
  if (op !== 'generations' && images.length === 0) {
    return openaiError(flavor, { status: 400, message: "'image' must be a file upload." });
  }
  const n = Math.max(1, Math.min(Number(body.n ?? 1) || 1, 10));
  const prompt = typeof body.prompt === 'string' ? body.prompt : '';
  const seen = images.map((f) => `${f.filename} (${f.size} bytes)`).join(', ');
  const revised = op === 'generations' ? prompt : `${op} of ${seen}${prompt ? `: ${prompt}` : ''}`;
  const asUrl = body.response_format === 'url';
  return () => {
    const data = Array.from({ length: n }, (_, i) =>
      asUrl
        ? { url: `https://sim.invalid/images/${newId('img_')}-${i}.png`, revised_prompt: revised }
        : { b64_json: SIM_PNG_BASE64, revised_prompt: revised },
    );
    const out: Obj = { created: Math.floor(Date.now() / 1000), data };
    if (String(body.model).startsWith('gpt-image')) {
      const text = countWords(prompt);
      const image = images.length * 65;
      out.usage = {
        input_tokens: text + image,
        output_tokens: 272 * n,
        total_tokens: text + image + 272 * n,
        input_tokens_details: { text_tokens: text, image_tokens: image },
      };
    }
    return jsonReply(200, out, successHeaders(flavor));
  };
}

/** Mistral's `POST /v1/ocr` `{model, document: {type: document_url|image_url, ...}}` → pages of markdown. */
export function ocrOperation(req: SimRequest): Operation | Reply {
  const bad = badBody('openai', req, ['model', 'document']);
  if (bad) return bad;
  const body = req.body as Obj;
  req.model = String(body.model);
  const document = isObj(body.document) ? body.document : {};
  const url = document.type === 'image_url' ? document.image_url : document.document_url;
  if (typeof url !== 'string') {
    return jsonReply(422, { object: 'error', message: 'document url missing', type: 'invalid_request_error' });
  }
  return () =>
    jsonReply(
      200,
      {
        pages: [
          {
            index: 0,
            markdown: `# OCR of ${url.slice(0, 64)}`,
            images: [],
            dimensions: { dpi: 200, height: 2200, width: 1700 },
          },
        ],
        model: req.model,
        document_annotation: null,
        usage_info: { pages_processed: 1, doc_size_bytes: null },
      },
      successHeaders('openai'),
    );
}
