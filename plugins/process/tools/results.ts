// The outputSchema of every process tool: the exact shape its handler returns (ProcessView
// and OutputChunk as the tools send them). Closed, so that a result that changes without its
// schema fails the contract test instead of a client; core checks every result against it.
import { closedObject, type JsonSchema } from '@mcp-gateway/core';

const count = { type: 'integer', minimum: 0 };
const id = { type: 'string', description: 'The process id, e.g. "proc-12".' };
const status = {
  enum: ['running', 'exited', 'failed', 'killed', 'unknown'],
  description: 'unknown: started before a gateway restart and no longer traceable.',
};
const exitCode = { type: ['integer', 'null'], description: 'null while running or when ended by a signal.' };
const signal = { type: ['string', 'null'], description: 'The signal that ended it, e.g. "SIGTERM"; null otherwise.' };
const logs = closedObject({ stdout: { type: 'string' }, stderr: { type: 'string' } });

/** ProcessView (process-store.ts). */
export const processView = closedObject({
  id,
  command: { type: 'string' },
  args: { type: 'array', items: { type: 'string' } },
  cwd: { type: 'string', description: 'Absolute working directory.' },
  shell: { type: 'boolean' },
  tags: { type: 'object', additionalProperties: { type: 'string' } },
  ports: { type: 'array', items: { type: 'integer' } },
  pid: { type: ['integer', 'null'] },
  status,
  exit_code: exitCode,
  signal,
  started_at: { type: 'string', format: 'date-time' },
  exited_at: { type: ['string', 'null'], format: 'date-time' },
  logs: { ...logs, description: 'Files holding the full output.' },
  lingering_pids: { type: 'array', items: { type: 'integer' }, description: 'Processes of its group still running after it (the leader) ended.' },
});

/** OutputChunk (output-log.ts). */
const chunkProperties: Record<string, JsonSchema> = {
  offset: { ...count, description: 'Offset of the first byte of text.' },
  next_offset: { ...count, description: 'Pass as offset next time to get only what is new.' },
  text: { type: 'string' },
  skipped_bytes: { ...count, description: 'Older output dropped by the retention cap.' },
  more: { type: 'boolean', description: 'More output is already there after next_offset.' },
  total_bytes: { ...count, description: 'Everything the stream has printed, kept or not.' },
};
const chunk = closedObject(chunkProperties);

const oneStream = closedObject({ id, status, stream: { enum: ['stdout', 'stderr'] }, ...chunkProperties });
const bothStreams = closedObject({
  id,
  status,
  stream: { const: 'both' },
  stdout: chunk,
  stderr: chunk,
  next_offset: closedObject({ stdout: count, stderr: count }),
});

export const processResults = {
  process_start: processView,
  process_stop: processView,
  process_kill: processView,
  process_list: closedObject({ processes: { type: 'array', items: processView } }),
  process_output: { type: 'object', oneOf: [oneStream, bothStreams] },
  process_input: closedObject({ id, bytes_written: count, stdin_open: { type: 'boolean' } }),
  process_free_port: closedObject({ port: { type: 'integer', minimum: 1, maximum: 65535 }, host: { type: 'string' } }),
  process_run: closedObject({
    id,
    status,
    exit_code: exitCode,
    signal,
    timed_out: { type: 'boolean' },
    duration_ms: count,
    stdout: { type: 'string', description: 'The last 100 lines (at most 16 KiB).' },
    stderr: { type: 'string', description: 'The last 100 lines (at most 16 KiB).' },
    stdout_bytes: { ...count, description: 'All it printed on stdout.' },
    stderr_bytes: { ...count, description: 'All it printed on stderr.' },
    logs: { ...logs, description: 'Files holding the full output (also readable with process_output).' },
  }),
} satisfies Record<string, JsonSchema>;
