import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { RUN_MODE } from '../../helpers/test-env.js';
import type { InferenceStack } from '../../inference/inference-kit.js';
import {
  type CellGolden,
  type FormatCase,
  normaliseIds,
  SCRIPTED_CALL,
  startGoldenStack,
  TARGET_CALLS,
  TARGET_NAMES,
  TARGETS,
  type Target,
  upstreamCall,
} from './golden-kit.js';

/**
 * One row of the golden matrix: a provider format in, each provider out. Per cell, three exchanges held against
 * literal bodies: a unary turn carrying a tool call and its result (thinking on where the format has it) answered by
 * a scripted tool call; a streamed first turn that calls a tool (thinking on); a streamed text answer. Each checks
 * the path and body the simulator received and the native answer the client got, event by event for streams.
 */
export function goldenMatrix(format: FormatCase, golden: Record<Target, CellGolden>): void {
  describe(`golden conversions: /${format.name} in × each provider out (${RUN_MODE})`, () => {
    let s: InferenceStack;
    beforeAll(async () => {
      s = await startGoldenStack();
    });
    afterAll(() => s?.close());
    beforeEach(() => s.sim.reset());

    for (const target of TARGET_NAMES) {
      const cell = golden[target];
      it(`/${format.name} → ${target}: unary, a tool call and its result in, a tool call out`, async () => {
        s.sim.scenario({ match: TARGET_CALLS[target], responses: [{ ok: true, tool_calls: [SCRIPTED_CALL] }] });
        const { status, answer } = await format.send(s, TARGETS[target], 'unary');
        expect(status, JSON.stringify(answer)).toBe(200);
        expect(normaliseIds(upstreamCall(s))).toEqual({ path: cell.unary.path, body: cell.unary.upstream });
        expect(normaliseIds(answer)).toEqual(cell.unary.answer);
      });

      for (const request of ['toolStream', 'textStream'] as const) {
        it(`/${format.name} → ${target}: ${request === 'toolStream' ? 'a tool call' : 'text'} streamed event by event`, async () => {
          const { status, answer } = await format.send(s, TARGETS[target], request);
          expect(status, JSON.stringify(answer)).toBe(200);
          expect(normaliseIds(upstreamCall(s))).toEqual({ path: cell[request].path, body: cell[request].upstream });
          expect(normaliseIds(answer)).toEqual(cell[request].answer);
        });
      }
    }
  });
}
