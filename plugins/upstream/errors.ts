import type { ErrorSpec } from '@mcp-gateway/core';

/** The plugin's error codes; README.md lists them with their HTTP status. */
export const upstreamErrors = {
  UPSTREAM_UNAVAILABLE: {
    status: 503,
    mcp: 'result',
    description:
      'The upstream MCP server is not connected (starting, restarting after it exited, or unreachable); the gateway keeps retrying. gateway_status shows its state and last error.',
  },
  UPSTREAM_ERROR: {
    status: 502,
    mcp: 'result',
    description: 'The upstream MCP server answered with a protocol error; the message is its own.',
  },
  UPSTREAM_TOOL_ERROR: {
    status: 422,
    mcp: 'result',
    description: "The upstream server's tool ran and reported a failure (isError); the message is its text, details.content its whole result.",
  },
  UPSTREAM_QUESTION_REFUSED: {
    status: 409,
    mcp: 'result',
    description:
      "A 2026-07-28 upstream server asked the caller a question the gateway cannot relay: while several calls to that server were in flight (nothing says whose question it is), or URL-mode elicitation. Call again when the other calls are done.",
  },
  UPSTREAM_MESSAGE_TOO_LARGE: {
    status: 502,
    mcp: 'result',
    description:
      "The upstream server sent a message (this call's answer, or one while the call was in flight on a stdio server) larger than its maxMessageBytes; the gateway read no further. A stdio server is restarted. Ask for less (a range, a page), or raise the server's maxMessageBytes.",
  },
} as const satisfies Record<string, ErrorSpec>;

export type UpstreamErrorCode = keyof typeof upstreamErrors;
