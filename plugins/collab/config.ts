import type { ConfigType } from '@mcp-gateway/core';
import { AGENT_NAME_PATTERN } from './model.js';

const seconds = (value: number, minimum: number, maximum: number, description: string) =>
  ({ type: 'integer', minimum, maximum, default: value, description }) as const;

/** The plugin's section of gateway.config.yaml (see README.md); `CollabConfig` is inferred from it. */
export const configSchema = {
  type: 'object',
  properties: {
    presence: {
      type: 'object',
      additionalProperties: false,
      default: {},
      description: 'When an agent counts as present.',
      properties: {
        staleSeconds: seconds(300, 10, 86_400, 'An agent not heard from (no call, no heartbeat) for this long is offline.'),
        activeWindowSeconds: seconds(3600, 60, 30 * 86_400, 'collab_list_agents with active_only lists the agents heard from within this window.'),
      },
    },
    messages: {
      type: 'object',
      additionalProperties: false,
      default: {},
      description: 'Sizes and retention of messages.',
      properties: {
        maxSubjectChars: { type: 'integer', minimum: 1, maximum: 1000, default: 200, description: 'A subject at most, in characters.' },
        maxBodyChars: { type: 'integer', minimum: 1, maximum: 1_000_000, default: 50_000, description: 'A body at most, in characters.' },
        retainCount: { type: 'integer', minimum: 10, maximum: 1_000_000, default: 1000, description: 'Messages kept; older ones are pruned as new ones arrive.' },
        retainDays: { type: 'integer', minimum: 1, maximum: 3650, default: 30, description: 'Messages older than this are pruned.' },
      },
    },
    plans: {
      type: 'object',
      additionalProperties: false,
      default: {},
      description: 'How much a plan keeps: a plan is read whole as a resource, so it stays bounded.',
      properties: {
        maxItems: { type: 'integer', minimum: 1, maximum: 10_000, default: 200, description: 'Items per plan at most; collab_add_plan_item answers COLLAB_PLAN_TOO_LARGE beyond.' },
        maxNotesPerItem: { type: 'integer', minimum: 1, maximum: 1000, default: 50, description: 'Notes an item keeps, the newest: an older one is dropped when a new one arrives.' },
      },
    },
    tasks: {
      type: 'object',
      additionalProperties: false,
      default: {},
      description: 'How much a task keeps.',
      properties: {
        maxNotesPerTask: { type: 'integer', minimum: 1, maximum: 1000, default: 50, description: "Shared notes (keys of collab_update_work_context) per task at most; a new key beyond is COLLAB_TASK_TOO_LARGE (an existing key is still replaced)." },
      },
    },
    banner: {
      type: 'boolean',
      default: true,
      description:
        'After something new reaches an agent (a message, a task, a STOP), its next tool result carries a one-line banner ("2 unread messages, 1 pending task"), for clients that show neither notifications nor channels.',
    },
    locks: {
      type: 'object',
      additionalProperties: false,
      default: {},
      description: 'File locks.',
      properties: {
        defaultMinutes: seconds(30, 1, 120, 'How long a lock lasts when the call does not say.'),
        claimMinutes: seconds(60, 1, 120, "How long the locks collab_claim_next takes on a task's files last."),
      },
    },
    watchdog: {
      type: 'object',
      additionalProperties: false,
      default: {},
      description: 'The periodic sweep: stale agents, stuck tasks, expired locks.',
      properties: {
        intervalSeconds: seconds(60, 1, 3600, 'Time between sweeps.'),
        stuckAfterSeconds: seconds(600, 10, 7 * 86_400, 'A task in progress this long without a progress report is flagged stuck (so is one past its own expected duration).'),
      },
    },
    workers: {
      type: 'object',
      additionalProperties: false,
      default: {},
      description: 'Agents this gateway starts as child processes (collab_spawn_worker), through the process plugin.',
      properties: {
        kinds: {
          type: 'object',
          default: {},
          maxProperties: 64,
          propertyNames: { type: 'string', pattern: AGENT_NAME_PATTERN },
          description: 'The only commands a worker can run, by kind name: a tool call names a kind, never a command.',
          additionalProperties: {
            type: 'object',
            additionalProperties: false,
            required: ['command'],
            properties: {
              command: {
                type: 'array',
                minItems: 1,
                maxItems: 256,
                items: { type: 'string', minLength: 1, maxLength: 4096 },
                description:
                  'argv: the program, then its arguments, run without a shell. In the arguments, {agent}, {task_id} and {worktree} are replaced by the worker name, its task id and its directory, inside the one element they are in.',
              },
              env: {
                type: 'object',
                default: {},
                maxProperties: 200,
                propertyNames: { type: 'string', pattern: '^[A-Za-z_][A-Za-z0-9_]{0,127}$' },
                additionalProperties: { type: 'string', maxLength: 32_768 },
                description: "Variables added to the gateway's environment for this kind (an API key for TCP: MCP_GATEWAY_KEY).",
              },
              maxInstances: { type: 'integer', minimum: 1, maximum: 64, default: 1, description: 'Workers of this kind alive at once on this gateway.' },
              timeoutSeconds: seconds(3600, 1, 7 * 86_400, 'A worker running longer than this is stopped (failed, its task back to pending).'),
              restarts: { type: 'integer', minimum: 0, maximum: 100, default: 3, description: 'Restarts after an unhealthy stretch or a crash before the worker is failed.' },
              worktree: {
                enum: ['auto', 'never'],
                default: 'auto',
                description: 'auto: each worker works in its own git worktree (branch collab/<name>) when the workspace is a git repository; never: in the workspace itself.',
              },
            },
          },
        },
        healthCheckSeconds: seconds(5, 1, 600, 'Time between health checks of the running workers.'),
        degradedAfterSeconds: seconds(30, 1, 86_400, 'A worker silent this long (no output, no collab call) is degraded.'),
        unhealthyAfterSeconds: seconds(60, 1, 86_400, 'A worker silent this long is unhealthy and restarted.'),
      },
    },
    handleTtlSeconds: seconds(
      86_400,
      60,
      30 * 86_400,
      'How long the agent handle of collab_join stays good; a caller without a session (2026-07-28 MCP, REST) passes it as agent, then joins again for a new one.',
    ),
    keyAgents: {
      type: 'object',
      default: {},
      propertyNames: { type: 'string', minLength: 1, maxLength: 128 },
      additionalProperties: { type: 'string', pattern: AGENT_NAME_PATTERN },
      description:
        'API keys pinned to one agent: {<key name>: <agent>}. A pinned key acts only as its agent, and its agent is acted as only by that key (and the owner key).',
    },
  },
} as const;

export type CollabConfig = ConfigType<typeof configSchema>;
