import { GatewayApiError } from '../errors.js';

/** A failure of the command's own making that is not a usage mistake (exit 1, the message on stderr). */
export class CommandFailure extends Error {
  override readonly name = 'CommandFailure';
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}

/**
 * Prints a failure on stderr and answers the exit code: an API refusal prints one summary line and the GatewayError
 * as JSON (exit 1); an unreachable gateway names the address (exit 1).
 */
export function reportFailure(error: unknown): number {
  if (error instanceof GatewayApiError) {
    const param = error.param ? ` (param: ${error.param})` : '';
    process.stderr.write(`gatewayctl: ${error.status} ${error.code}: ${error.message}${param}\n`);
    process.stderr.write(`${JSON.stringify(error.toJSON(), null, 2)}\n`);
    return 1;
  }
  if (error instanceof CommandFailure) {
    process.stderr.write(`gatewayctl: ${error.message}\n`);
    return error.exitCode;
  }
  const cause = (error as { cause?: { code?: string; message?: string } })?.cause;
  if (error instanceof TypeError && error.message === 'fetch failed') {
    process.stderr.write(`gatewayctl: cannot reach the gateway: ${cause?.code ?? cause?.message ?? 'fetch failed'}\n`);
    return 1;
  }
  process.stderr.write(`gatewayctl: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  return 1;
}
