// process_input: talking to a running process through its stdin.
import type { ToolDefinition } from '@mcp-gateway/core';
import { idSchema, type ProcessToolDeps } from './common.js';
import { processResults } from './results.js';

const processInput = {
  name: 'process_input',
  title: 'Write to a process',
  description:
    "Writes text to a running process's stdin, for REPLs, prompts and interactive tools; read the reply with process_output. " +
    'Only processes from process_start take input.',
  inputSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['id', 'input'],
    properties: {
      id: idSchema,
      input: { type: 'string', maxLength: 1024 * 1024, description: 'End a line with \\n. May be empty with close.' },
      close: { type: 'boolean', default: false, description: 'Then close stdin (EOF), which many programs wait for.' },
    },
    examples: [{ id: 'proc-0', input: 'hello\n' }],
  },
  outputSchema: processResults.process_input,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
} as const satisfies ToolDefinition;

export function registerInputTools({ ctx, supervisor }: ProcessToolDeps): void {
  ctx.tool(processInput, async (args, call) => {
    supervisor.toolRow(args.id);
    const written = await supervisor.write(args.id, args.input, args.close, call.signal);
    return { id: args.id, bytes_written: written.bytes, stdin_open: written.stdin_open };
  });
}
