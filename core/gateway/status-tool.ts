import type { AuditState } from './audit.js';
import type { StoreHealthReport } from '../storage/store-health.js';
import type { LifecycleState } from '../runtime/lifecycle.js';
import type { BreakerStatus } from '../contract/breaker-types.js';
import type { LoadedPlugin, SkippedPlugin } from '../plugins/plugin-host.js';
import type { PluginStatus, ToolDefinition } from '../contract/plugin-types.js';
import { closedObject, type JsonSchema } from '../lib/schema.js';

export interface GatewayStatus {
  /** Where the gateway is in its life (lifecycle.ts). */
  state: LifecycleState;
  version: string;
  uptimeS: number;
  plugins: Array<Pick<LoadedPlugin, 'name' | 'version' | 'tools'> & { status?: PluginStatus }>;
  skippedPlugins: SkippedPlugin[];
  toolCount: number;
  breakers: BreakerStatus[];
  sessions: Record<string, number>;
  /** Whether calls can be audited (absent when `tools.audit` is off). */
  audit?: AuditState;
  /** The shared store's engine, how its search scores vectors (docs/storage.md, "Search") and whether it answers. */
  store: { dialect: 'sqlite' | 'postgres'; vectors: 'sqlite-vec' | 'exact'; vectorsReason?: string } & StoreHealthReport;
}

const count = { type: 'integer', minimum: 0 };

/** The fields of GatewayStatus; /health answers them too, with its own `status` beside them. */
export const gatewayStatusProperties: Record<string, JsonSchema> = {
  state: { enum: ['booting', 'ready', 'closing', 'closed'], description: 'booting until every listener is up, ready, then closing once shutdown has begun.' },
  version: { type: 'string' },
  uptimeS: { ...count, description: 'Seconds since the gateway started.' },
  plugins: {
    type: 'array',
    items: closedObject(
      {
        name: { type: 'string' },
        version: { type: 'string' },
        tools: { type: 'array', items: { type: 'string' } },
        status: {
          ...closedObject({ ok: { type: 'boolean' }, detail: { type: 'object', description: "The plugin's own detail (its README says what)." } }, ['detail']),
          description: 'What the plugin reports of its own state (ctx.reportStatus); ok: false makes /health degraded.',
        },
      },
      ['status'],
    ),
  },
  skippedPlugins: {
    type: 'array',
    description: 'Plugins not loaded at boot (an optional one whose dependency is missing, say).',
    items: closedObject({ name: { type: 'string' }, code: { type: 'string', description: 'Stable error code; see docs/errors.md.' }, reason: { type: 'string' } }),
  },
  toolCount: count,
  breakers: {
    type: 'array',
    items: closedObject(
      {
        name: { type: 'string', description: '<plugin>:<service>' },
        state: { enum: ['closed', 'open', 'halfOpen'] },
        stats: {
          ...closedObject({ fires: count, successes: count, failures: count, rejects: count, timeouts: count }),
          description: 'Counts in the current rolling window.',
        },
        retryAfterMs: { ...count, description: 'When not closed: milliseconds until a trial call is let through.' },
      },
      ['retryAfterMs'],
    ),
  },
  sessions: { type: 'object', additionalProperties: count, description: 'Open MCP sessions by transport.' },
  audit: {
    ...closedObject({ state: { enum: ['ok', 'unavailable'] }, failOpen: { type: 'boolean' }, reason: { type: 'string', description: 'Why the journal cannot be written (ENOSPC, say).' }, droppedRows: count }, ['reason']),
    description: 'Whether calls can be audited; absent when tools.audit is off. docs/configuration.md, "tools".',
  },
  store: {
    ...closedObject(
      {
        dialect: { enum: ['sqlite', 'postgres'] },
        vectors: { enum: ['sqlite-vec', 'exact'], description: 'sqlite-vec: search scores vectors in SQLite; exact: in the gateway (PostgreSQL, or sqlite-vec did not load).' },
        vectorsReason: { type: 'string', description: 'Why vectors are scored by the gateway.' },
        state: { enum: ['ok', 'unavailable'], description: 'Whether the store answered its last probe (at most storage.healthCheck.cacheMs old); unavailable makes /health answer 503.' },
        checkedAt: { type: 'string', description: 'When that probe answered (ISO 8601).' },
        error: {
          ...closedObject({ code: { type: 'string', description: 'The code calls get meanwhile (STORE_UNAVAILABLE, STORE_TIMEOUT).' }, message: { type: 'string' } }),
          description: 'Why the store is unavailable.',
        },
      },
      ['vectorsReason', 'error'],
    ),
    description: 'The shared store (ctx.store) and its health. docs/storage.md.',
  },
};

export const statusToolDefinition: ToolDefinition = {
  name: 'gateway_status',
  title: 'Gateway status',
  description:
    'Reports the gateway itself: version, uptime, plugins loaded (with their tools) or skipped at boot (with why), circuit breakers, open sessions, audit and store health.',
  inputSchema: { type: 'object', additionalProperties: false, properties: {}, examples: [{}] },
  outputSchema: closedObject(gatewayStatusProperties),
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
};
