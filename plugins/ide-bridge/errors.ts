import type { ErrorSpec } from '@mcp-gateway/core';

/** The plugin's error codes; README.md lists them with their HTTP status. */
export const ideErrors = {
  IDE_BRIDGE_UNAVAILABLE: {
    status: 503,
    mcp: 'result',
    description: 'The IDE backend is not connected and the bridge is in whenDown: fail mode, or the connection dropped while a request waited for its answer: try again later; ide_bridge_status says why (lastError) and when it retries.',
  },
  IDE_BACKEND_TIMEOUT: {
    status: 504,
    mcp: 'result',
    description: 'The IDE backend did not answer within requestTimeoutMs. The message may still arrive; ide_bridge_status shows the breaker. Retry later.',
  },
  IDE_QUEUE_FULL: {
    status: 503,
    mcp: 'result',
    description: 'The outbound queue holds queueLimit messages already (waiting for the backend to come back, or still being delivered): nothing was queued. Retry when ide_bridge_status shows a shorter queue.',
  },
  IDE_BACKEND_REFUSED: {
    status: 502,
    mcp: 'result',
    description: "The IDE backend refused this gateway's token (401/403 on the upgrade): set the token in the variable named by tokenEnv. The bridge retries only after a random wait between reconnect.maxMs/2 and reconnect.maxMs.",
  },
  IDE_BACKEND_ERROR: {
    status: 502,
    mcp: 'result',
    description: "The IDE backend answered the request with an error (details.code, details.message from the backend). Check the backend's log.",
  },
  IDE_NOT_FOUND: {
    status: 404,
    mcp: 'result',
    description: 'The IDE backend knows no such session or build: list them (ide_session_list, ide_build_list) for valid ids.',
  },
  IDE_STATE_INVALID: {
    status: 400,
    mcp: 'result',
    description: 'The dashboard state holds a key that is refused (__proto__, constructor, prototype) or is longer than 256 Ki characters as JSON: send a plain JSON object.',
  },
} as const satisfies Record<string, ErrorSpec>;

export type IdeErrorCode = keyof typeof ideErrors;
