import type { Readable, Writable } from 'node:stream';
import type { GatewayError } from '../contract/errors.js';
import { parseJson } from '../lib/json.js';
import { jsonRpcError } from '../contract/replies.js';
import { textLines } from '../lib/text-lines.js';

/** How long a client that sends nothing is waited for before the gateway exits anyway. */
const FIRST_REQUEST_WAIT_MS = 10_000;

/**
 * For a `--stdio` start that cannot serve (no config file, a broken one): answers the client's
 * first request, its `initialize`, with the start-up error as a JSON-RPC error, which MCP
 * clients show with its message; a server that only exits shows as "Connection closed". The
 * same line goes to stderr as for any failed start. Resolves once that answer is written, or
 * when stdin ends, or after FIRST_REQUEST_WAIT_MS; stdin is then let go.
 */
export function refuseStdioSession(error: GatewayError, input: Readable = process.stdin, output: Writable = process.stdout): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => done(), FIRST_REQUEST_WAIT_MS);
    timer.unref();
    let finished = false;
    const done = () => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      if (input === process.stdin) process.stdin.destroy();
      resolve();
    };
    const answerFirstRequest = async () => {
      for await (const line of textLines(input)) {
        if (finished) return;
        const request = requestOf(line);
        // Notifications, responses and what is not JSON need no answer; the first request gets the error.
        if (!request) continue;
        output.write(`${JSON.stringify(jsonRpcError(request.id, error))}\n`, () => done());
        return;
      }
      done();
    };
    // A stdin that fails (destroyed on the timeout, a broken pipe) has nothing more to answer.
    answerFirstRequest().catch(done);
  });
}

function requestOf(line: string): { id: string | number } | undefined {
  try {
    const message = parseJson(line) as { id?: unknown; method?: unknown } | null;
    if (typeof message?.method === 'string' && (typeof message.id === 'string' || typeof message.id === 'number')) return { id: message.id };
  } catch {
    // not JSON
  }
  return undefined;
}
