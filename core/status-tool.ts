import type { AuditState } from './audit.js';
import type { BreakerStatus } from './breaker.js';
import type { LoadedPlugin, SkippedPlugin } from './plugin-host.js';
import type { ToolDefinition } from './plugin-types.js';

export interface GatewayStatus {
  version: string;
  uptimeS: number;
  plugins: Array<Pick<LoadedPlugin, 'name' | 'version' | 'tools'>>;
  skippedPlugins: SkippedPlugin[];
  toolCount: number;
  breakers: BreakerStatus[];
  sessions: Record<string, number>;
  /** Whether calls can be audited (absent when `tools.audit` is off). */
  audit?: AuditState;
}

const pluginSummary = {
  type: 'object',
  required: ['name', 'version', 'tools'],
  properties: {
    name: { type: 'string' },
    version: { type: 'string' },
    tools: { type: 'array', items: { type: 'string' } },
  },
};

export const statusToolDefinition: ToolDefinition = {
  name: 'gateway_status',
  title: 'Gateway status',
  description:
    'Reports the gateway itself: version, uptime, loaded plugins with their tools, plugins skipped at boot and why, circuit breakers with their state, and open sessions by transport.',
  inputSchema: { type: 'object', additionalProperties: false, properties: {} },
  outputSchema: {
    type: 'object',
    required: ['version', 'uptimeS', 'plugins', 'skippedPlugins', 'toolCount', 'breakers', 'sessions'],
    properties: {
      version: { type: 'string' },
      uptimeS: { type: 'number' },
      plugins: { type: 'array', items: pluginSummary },
      skippedPlugins: { type: 'array', items: { type: 'object' } },
      toolCount: { type: 'integer' },
      breakers: { type: 'array', items: { type: 'object' } },
      sessions: { type: 'object', additionalProperties: { type: 'integer' } },
      audit: {
        type: 'object',
        required: ['state', 'failOpen', 'droppedRows'],
        properties: {
          state: { enum: ['ok', 'unavailable'] },
          failOpen: { type: 'boolean' },
          reason: { type: 'string' },
          droppedRows: { type: 'integer' },
        },
      },
    },
  },
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
};
