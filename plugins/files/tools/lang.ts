import { basename } from 'node:path';
import type { ToolAnnotations } from '@mcp-gateway/core';
import type { FilesContext } from '../files-context.js';
import { LANGUAGES, languageOfName, languageOfShebang } from '../languages.js';
import { fileResults } from './results.js';

const readOnly: ToolAnnotations = { readOnlyHint: true, idempotentHint: true, openWorldHint: false };

export function registerLanguageTools({ ctx, sandbox }: FilesContext): void {
  ctx.tool(
    {
      name: 'lang_detect',
      title: 'Detect a file\'s language',
      description:
        'The language of a file from its name (Dockerfile…), its extension or, failing both, its #! line; null when unknown. The file need not exist.',
      inputSchema: {
        type: 'object',
        additionalProperties: false,
        required: ['path'],
        properties: { path: { type: 'string', minLength: 1, maxLength: 4096 } },
        examples: [{ path: 'src/main.rs' }, { path: 'Dockerfile' }],
      },
      outputSchema: fileResults.lang_detect,
      annotations: readOnly,
    },
    async (args) => {
      const real = sandbox.resolve(args.path);
      let language = languageOfName(basename(real));
      if (!language) {
        const firstLine = await readFirstLine(sandbox, real);
        language = firstLine === undefined ? undefined : languageOfShebang(firstLine);
      }
      return { path: sandbox.display(real), language: language?.id ?? null, name: language?.name ?? null };
    },
  );

  ctx.tool(
    {
      name: 'lang_list',
      title: 'Known languages',
      description: 'Every language lang_detect knows, with its extensions and special file names.',
      inputSchema: { type: 'object', additionalProperties: false, properties: {}, examples: [{}] },
      outputSchema: fileResults.lang_list,
      annotations: readOnly,
    },
    () => ({
      languages: LANGUAGES.map(({ id, name, extensions, filenames }) => ({ id, name, extensions: [...extensions], filenames: [...(filenames ?? [])] })),
    }),
  );
}

/** The first line of a readable regular file, from its first 256 bytes; undefined otherwise. */
async function readFirstLine(sandbox: FilesContext['sandbox'], real: string): Promise<string | undefined> {
  try {
    const handle = await sandbox.openRead(real);
    try {
      const buffer = Buffer.alloc(256);
      const { bytesRead } = await handle.read(buffer, 0, 256, 0);
      return buffer.subarray(0, bytesRead).toString('utf8').split('\n')[0];
    } finally {
      await handle.close();
    }
  } catch {
    return undefined;
  }
}
