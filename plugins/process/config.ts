import type { JsonSchema } from '../../core/index.js';

/** The plugin's section of gateway.config.yaml, with defaults applied (see README.md). */
export interface ProcessConfig {
  /** Command patterns that may run; empty: every command not denied. */
  readonly allow: readonly string[];
  /** Command patterns that may never run; checked before `allow`. */
  readonly deny: readonly string[];
  /** Whether `shell: true` is accepted at all. */
  readonly allowShell: boolean;
  /** Processes (started or run) alive at the same time. */
  readonly maxProcesses: number;
  /** process_stop's wait between SIGTERM and SIGKILL when the call gives no grace_ms. */
  readonly defaultGraceMs: number;
  /** The same wait at gateway shutdown (keep it below core's shutdownTimeoutMs). */
  readonly shutdownGraceMs: number;
  /** Output kept per stream of each process; older output is dropped. */
  readonly maxOutputBytes: number;
  /** Exited processes whose records and logs are kept; older ones are deleted. */
  readonly retainExited: number;
  /** At gateway shutdown: stop every process, or keep them running and adopt them next start. */
  readonly onShutdown: 'stop' | 'keep';
  /** How often output is checked: process.output events are batched at this pace. */
  readonly pollIntervalMs: number;
  /** How often process_run sends progress notifications. */
  readonly progressIntervalMs: number;
}

const MiB = 1024 * 1024;
const patterns: JsonSchema = { type: 'array', items: { type: 'string', minLength: 1, maxLength: 1024 }, default: [] };

export const configSchema: JsonSchema = {
  type: 'object',
  properties: {
    allow: patterns,
    deny: patterns,
    allowShell: { type: 'boolean', default: false },
    maxProcesses: { type: 'integer', minimum: 1, maximum: 1024, default: 16 },
    defaultGraceMs: { type: 'integer', minimum: 0, maximum: 120_000, default: 5000 },
    shutdownGraceMs: { type: 'integer', minimum: 0, maximum: 60_000, default: 2000 },
    maxOutputBytes: { type: 'integer', minimum: 4096, maximum: 1024 * MiB, default: 8 * MiB },
    retainExited: { type: 'integer', minimum: 0, maximum: 100_000, default: 200 },
    onShutdown: { enum: ['stop', 'keep'], default: 'stop' },
    pollIntervalMs: { type: 'integer', minimum: 20, maximum: 10_000, default: 250 },
    progressIntervalMs: { type: 'integer', minimum: 100, maximum: 60_000, default: 1000 },
  },
};
