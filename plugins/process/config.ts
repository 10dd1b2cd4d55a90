import type { ConfigType } from '@mcp-gateway/core';

const MiB = 1024 * 1024;
const patterns = { type: 'array', items: { type: 'string', minLength: 1, maxLength: 1024 }, default: [] } as const;

/** The plugin's section of gateway.config.yaml (see README.md); `ProcessConfig` is inferred from it. */
export const configSchema = {
  type: 'object',
  properties: {
    allow: { ...patterns, description: 'Command patterns that may run; empty: every command not denied.' },
    deny: { ...patterns, description: 'Command patterns that may never run; checked before `allow`.' },
    allowShell: { type: 'boolean', default: false, description: 'Whether `shell: true` is accepted at all.' },
    maxProcesses: { type: 'integer', minimum: 1, maximum: 1024, default: 16, description: 'Processes (started or run) alive at the same time.' },
    maxCommandBytes: {
      type: 'integer',
      minimum: 1024,
      // Linux's own bound on argv and the environment together (ARG_MAX) is typically 2 MiB.
      maximum: 2 * MiB,
      default: 64 * 1024,
      description:
        "A command line at most: command and args together, in UTF-8 bytes (PROCESS_COMMAND_TOO_LARGE beyond). It is kept in the process's record and shown in process_list, its views and its events.",
    },
    defaultGraceMs: {
      type: 'integer',
      minimum: 0,
      maximum: 120_000,
      default: 5000,
      description: "process_stop's wait between SIGTERM and SIGKILL when the call gives no grace_ms.",
    },
    shutdownGraceMs: {
      type: 'integer',
      minimum: 0,
      maximum: 60_000,
      default: 2000,
      description: "The same wait at gateway shutdown (keep it below core's shutdownTimeoutMs).",
    },
    maxOutputBytes: {
      type: 'integer',
      minimum: 4096,
      maximum: 1024 * MiB,
      default: 8 * MiB,
      description: 'Output kept per stream of each process; older output is dropped.',
    },
    retainExited: {
      type: 'integer',
      minimum: 0,
      maximum: 100_000,
      default: 200,
      description: 'Exited processes whose records and logs are kept; older ones are deleted.',
    },
    onShutdown: {
      enum: ['stop', 'keep'],
      default: 'stop',
      description: 'At gateway shutdown: stop every process, or keep them running and adopt them next start.',
    },
    pollIntervalMs: {
      type: 'integer',
      minimum: 20,
      maximum: 10_000,
      default: 250,
      description: 'How often output is checked: process.output events are batched at this pace.',
    },
    progressIntervalMs: {
      type: 'integer',
      minimum: 100,
      maximum: 60_000,
      default: 1000,
      description: 'How often process_run sends progress notifications.',
    },
  },
} as const;

export type ProcessConfig = Readonly<ConfigType<typeof configSchema>>;
