// process_list and process_output: finding processes and following what they print.
import type { ToolDefinition } from '@mcp-gateway/core';
import { OutputLog, type OutputChunk, type StreamName } from '../output-log.js';
import { toView } from '../process-store.js';
import { logPaths } from '../spawn-child.js';
import { idSchema, type ProcessToolDeps } from './common.js';
import { processResults } from './results.js';

const MAX_READ_BYTES = 1024 * 1024;

const processList = {
  name: 'process_list',
  title: 'List processes',
  description:
    'Lists processes started with process_start, newest first, with their status. ' +
    'Use it to find a dev server or watcher again, also one started before a gateway restart.',
  inputSchema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      running_only: { type: 'boolean', default: false },
      tags: {
        type: 'object',
        additionalProperties: { type: 'string', maxLength: 256 },
        maxProperties: 32,
        default: {},
        description: 'Only processes carrying all these pairs.',
      },
      exited_within_s: {
        type: 'integer',
        minimum: 0,
        maximum: 315_360_000,
        description: 'Leave out processes that exited longer ago than this.',
      },
      limit: { type: 'integer', minimum: 1, maximum: 500, default: 50 },
    },
    examples: [{ running_only: true }, { tags: { role: 'echo' }, limit: 10 }],
  },
  outputSchema: processResults.process_list,
  annotations: { readOnlyHint: true, openWorldHint: false },
} as const satisfies ToolDefinition;

const chunkOffset = { type: 'integer', minimum: 0 } as const;

const processOutput = {
  name: 'process_output',
  title: 'Read process output',
  description:
    'Reads what a process printed, from the oldest output kept, or its last lines with tail_lines. ' +
    "To follow it, pass the previous answer's next_offset as offset: you get only what is new. more: true means more is already there.",
  inputSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['id'],
    properties: {
      id: idSchema,
      stream: { enum: ['stdout', 'stderr', 'both'], default: 'both' },
      tail_lines: { type: 'integer', minimum: 1, maximum: 10_000, description: 'Of what follows offset, if given.' },
      max_bytes: { type: 'integer', minimum: 64, maximum: MAX_READ_BYTES, default: 65_536, description: 'Per stream.' },
      offset: {
        description: 'The previous next_offset: a number for one stream, {stdout, stderr} for both.',
        anyOf: [
          chunkOffset,
          { type: 'object', additionalProperties: false, properties: { stdout: chunkOffset, stderr: chunkOffset } },
        ],
      },
    },
    examples: [{ id: 'proc-1' }, { id: 'proc-1', stream: 'stdout', tail_lines: 20 }],
  },
  outputSchema: processResults.process_output,
  annotations: { readOnlyHint: true, openWorldHint: false },
} as const satisfies ToolDefinition;



export function registerInspectTools({ ctx, supervisor }: ProcessToolDeps): void {
  ctx.tool(processList, (args) => {
    const exitedAfter = args.exited_within_s === undefined ? undefined : new Date(Date.now() - args.exited_within_s * 1000).toISOString();
    const rows = supervisor.list({ runningOnly: args.running_only, tags: args.tags, exitedAfter, limit: args.limit });
    return { processes: rows.map(toView) };
  });

  ctx.tool(processOutput, (args) => {
    const row = supervisor.toolRow(args.id);
    const managed = supervisor.managed(args.id);
    const settled = !(managed?.running ?? row.status === 'running');
    const paths = logPaths(row.log_dir);
    const read = (stream: StreamName, from: number | undefined): OutputChunk => {
      const log = managed?.logs[stream] ?? new OutputLog(paths[stream], stream === 'stdout' ? row.stdout_start : row.stderr_start);
      return args.tail_lines === undefined
        ? log.read(from, args.max_bytes, settled)
        : log.tail(args.tail_lines, from, args.max_bytes, settled);
    };
    const status = toView(row).status;
    if (args.stream !== 'both') {
      const from = typeof args.offset === 'object' ? args.offset[args.stream] : args.offset;
      return { id: args.id, status, stream: args.stream, ...read(args.stream, from) };
    }
    if (typeof args.offset === 'number') {
      throw ctx.error('INVALID_ARGUMENTS', 'With stream "both", offset is {stdout, stderr} (the next_offset of the last answer); a number needs stream "stdout" or "stderr".', {
        offset: args.offset,
      });
    }
    const stdout = read('stdout', args.offset?.stdout);
    const stderr = read('stderr', args.offset?.stderr);
    return { id: args.id, status, stream: 'both', stdout, stderr, next_offset: { stdout: stdout.next_offset, stderr: stderr.next_offset } };
  });
}
