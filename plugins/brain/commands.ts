// `mcp-gateway brain export` and `mcp-gateway brain import`: a brain as JSON lines, one memory
// (or tombstone) per line, so that a local brain can move to a shared one.
import { textLines, type CommandIo } from '@mcp-gateway/core';
import { IMPORT_BATCH, type Brain, type BrainCall } from './brain.js';
import type { BrainContext } from './declaration.js';
import type { ImportSummary, Memory } from './model.js';
import type { ContentCheck } from './tools/register.js';
import { importInput } from './tools/schemas.js';

/** The CLI acts as itself: the memories it imports keep their own agents. */
const CLI: BrainCall = { agent: 'cli' };

export function registerBrainCommands(ctx: BrainContext, brain: Brain, checkContent: ContentCheck): void {
  ctx.command(
    { name: 'export', description: 'Writes every memory and tombstone of the brain to stdout, one JSON object per line, oldest first.', usage: '> memories.jsonl' },
    async (args, io) => {
      if (args.length > 0) throw ctx.error('INVALID_ARGUMENTS', `brain export takes no arguments (got ${args.join(' ')}): mcp-gateway brain export > memories.jsonl`);
      let count = 0;
      for await (const memory of brain.export({ ...CLI, signal: io.signal })) {
        // Interrupted: fail (exit 128 + the signal), so that a script never takes a cut export for a whole one.
        io.signal.throwIfAborted();
        await write(io, `${JSON.stringify(memory)}\n`);
        count++;
      }
      io.stderr.write(`brain export: ${count} memories (${brain.kind})\n`);
    },
  );

  ctx.command(
    {
      name: 'import',
      description: 'Stores the memories of a brain export read from stdin: ids, agents, times and tombstones kept; ids already present are skipped, so it can be run again.',
      usage: '< memories.jsonl',
    },
    async (args, io) => {
      if (args.length > 0) throw ctx.error('INVALID_ARGUMENTS', `brain import reads stdin and takes no arguments (got ${args.join(' ')}): mcp-gateway brain import < memories.jsonl`);
      const validate = await memoryValidator();
      const total = { imported: 0, skipped: 0, forgotten: 0 };
      const add = (summary: ImportSummary) => {
        total.imported += summary.imported;
        total.skipped += summary.skipped;
        total.forgotten += summary.forgotten;
      };
      const report = () => `imported ${total.imported}, skipped ${total.skipped} already present, forgot ${total.forgotten}`;
      let batch: Memory[] = [];
      let line = 0;
      for await (const text of textLines(io.stdin)) {
        line++;
        io.signal.throwIfAborted();
        if (text.trim() === '') continue;
        const problem = problemOf(text, validate, checkContent);
        if (problem) {
          if (batch.length > 0) add(await brain.import(batch, CLI));
          // Earlier lines are stored: an import skips what it finds, so running it again after the fix is safe.
          throw ctx.error('INVALID_ARGUMENTS', `line ${line}: ${problem}. Stopped there (${report()}); fix the line and run the import again.`, { line });
        }
        batch.push(JSON.parse(text) as Memory);
        if (batch.length === IMPORT_BATCH) {
          add(await brain.import(batch, CLI));
          batch = [];
        }
      }
      if (batch.length > 0) add(await brain.import(batch, CLI));
      io.stdout.write(`brain import: ${report()} (${brain.kind})\n`);
    },
  );
}

type Validate = ((value: unknown) => boolean) & { errors?: Array<{ instancePath: string; message?: string }> | null };

/** brain_import's own schema for one memory, compiled once: the file is checked as the tool's input is. */
async function memoryValidator(): Promise<Validate> {
  const [{ Ajv2020 }, { default: addFormats }] = await Promise.all([import('ajv/dist/2020.js'), import('ajv-formats')]);
  const ajv = new Ajv2020({ allErrors: false, strict: false });
  (addFormats as unknown as (ajv: unknown) => void)(ajv);
  return ajv.compile(importInput.properties.memories.items) as Validate;
}

function problemOf(text: string, validate: Validate, checkContent: ContentCheck): string | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return `not JSON (${(err as Error).message})`;
  }
  if (!validate(value)) {
    const [first] = validate.errors ?? [];
    return `not a memory: ${first?.instancePath || '(the object)'} ${first?.message ?? 'is invalid'}`;
  }
  try {
    checkContent(value as Memory, 'content');
  } catch (err) {
    return (err as Error).message;
  }
  return undefined;
}

/** Writes with backpressure: a slow reader of stdout holds the export, not the gateway's memory. */
function write(io: CommandIo, text: string): Promise<void> {
  if (io.stdout.write(text)) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const stop = () => reject(io.signal.reason);
    io.signal.addEventListener('abort', stop, { once: true });
    io.stdout.once('drain', () => {
      io.signal.removeEventListener('abort', stop);
      resolve();
    });
  });
}
