// ide_bridge_status: how the connection to the backend is doing.
import type { ToolDefinition } from '@mcp-gateway/core';
import type { IdeContext } from '../declaration.js';
import { bridgeStatus, type StatusParts } from '../status.js';
import { count, output } from './schemas.js';

const bridgeStatusTool = {
  name: 'ide_bridge_status',
  title: 'IDE bridge status',
  description:
    'The connection to the IDE backend: its state and since when, reconnection attempts, last error (authRefused: token refused), queue, breaker, dropped pushes, cache sizes. Never asks the backend: use it to see why ide_ tools fail or answer stale.',
  inputSchema: { type: 'object', additionalProperties: false, properties: {}, examples: [{}] },
  outputSchema: output({
    url: { type: 'string' },
    state: { enum: ['connecting', 'open', 'waiting', 'closed'], description: 'open: connected; waiting: for the next attempt; connecting: an attempt under way.' },
    connected: { type: 'boolean' },
    since: { type: 'string', description: 'When the connection opened (connected) or went down (ISO 8601).' },
    retries: { ...count, description: 'Failed attempts since a connection last stayed open for reconnect.maxMs.' },
    attempts: { ...count, description: 'Connection attempts since the gateway started.' },
    nextAttemptInMs: { type: ['integer', 'null'], description: 'Milliseconds until the next attempt while waiting.' },
    recentDelaysMs: { type: 'array', items: count, description: 'The last waits between attempts (equal jitter: half a doubling ceiling plus a random part of the other half).' },
    authRefused: { type: 'boolean', description: 'The backend refused the token (401/403); retried only after a random wait between reconnect.maxMs/2 and reconnect.maxMs.' },
    lastError: { type: ['string', 'null'] },
    mode: { enum: ['queue', 'fail'] },
    queueLength: count,
    queueLimit: count,
    breaker: { enum: ['closed', 'open', 'halfOpen'] },
    droppedFrames: { ...count, description: 'Frames from the backend dropped as unreadable since the gateway started.' },
    droppedPushes: { ...count, description: 'Pushes from the backend dropped since the gateway started because they came faster than pushRates allow; reads then ask the backend again.' },
    pushRates: {
      type: 'object',
      additionalProperties: false,
      required: ['perSecond', 'perSessionPerSecond'],
      properties: { perSecond: count, perSessionPerSecond: count },
      description: 'Pushes taken in per second, in all and per chat session (config pushesPerSecond, pushesPerSessionPerSecond).',
    },
    droppedRecords: { ...count, description: 'Records in lists from the backend dropped as unreadable (over a field limit, a field missing) since the gateway started; the rest of each list is kept.' },
    cache: { type: 'object', additionalProperties: count, description: 'Entries kept per kind.' },
  }),
  annotations: { readOnlyHint: true, openWorldHint: false },
} as const satisfies ToolDefinition;

export function registerStatusTool(ctx: IdeContext, parts: StatusParts): void {
  ctx.tool(bridgeStatusTool, () => bridgeStatus(parts));
}
