import { lstatSync, type Stats } from 'node:fs';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { join } from 'node:path';
import picomatch from 'picomatch';
import { GatewayError, walk, withDir, type ToolAnnotations, type VerifiedDir } from '@mcp-gateway/core';
import { asFileError, withFileErrors } from '../errors.js';
import { FolderListings, type FolderEntry } from '../folder-listings.js';
import type { FilesContext } from '../files-context.js';
import { fileResults } from './results.js';

const readOnly: ToolAnnotations = { readOnlyHint: true, idempotentHint: true, openWorldHint: false };
const path = { type: 'string', minLength: 1, maxLength: 4096 } as const;
const globs = { type: 'array', maxItems: 50, items: { type: 'string', minLength: 1, maxLength: 500 }, description: 'Globs, e.g. "node_modules", "**/*.min.js".' } as const;

/** Files lstat'ed between two turns of the event loop (see describeEntries). */
const LSTAT_BATCH = 128;

interface TreeNode {
  name: string;
  isDir: boolean;
  children?: TreeNode[];
}

export function registerDirTools({ ctx, sandbox, searches, config }: FilesContext): void {
  /** Opens the folder `given`, checked to be inside a root (a walk checks each folder again). */
  const openFolder = async (given: string): Promise<VerifiedDir> => {
    try {
      return await sandbox.openFolder(given);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOTDIR') throw new GatewayError('NOT_A_DIRECTORY', `"${given}" is a file, not a folder.`);
      throw asFileError(err, given);
    }
  };
  const listings = new FolderListings(config.listingCacheEntries);
  const folder = async (given: string) => {
    const dir = await openFolder(given);
    await dir.close();
    return dir.path;
  };

  ctx.tool(
    {
      name: 'dir_list',
      title: 'List a folder',
      description:
        'Lists one folder\'s entries, sorted by name, with type and size in bytes. detail "names" answers only names (a folder\'s ends in "/"), the cheapest listing. For nested folders use dir_tree.',
      inputSchema: {
        type: 'object',
        additionalProperties: false,
        properties: {
          path: { ...path, default: '.' },
          detail: { enum: ['full', 'names'], default: 'full' },
        },
        examples: [{ path: '.' }, { path: '.', detail: 'names' }],
      },
      outputSchema: fileResults.dir_list,
      annotations: readOnly,
    },
    // Listed and described through the checked folder's descriptor: a folder swapped for a
    // link meanwhile cannot make an outside folder's entries appear here.
    async (args) =>
      withDir(openFolder(args.path), async (dir) => {
        // The folder's own listing says which entries are folders and links: no stat for those.
        const found = await withFileErrors(args.path, async () => listings.read(dir));
        if (args.detail === 'names') return { path: sandbox.display(dir.path), names: found.map(({ name, kind }) => (kind === 'folder' ? `${name}/` : name)) };
        return { path: sandbox.display(dir.path), entries: await describeEntries(dir, found, sandbox.entryDisplay(dir.path)) };
      }),
  );

  ctx.tool(
    {
      name: 'dir_tree',
      title: 'Folder tree',
      description: 'A folder\'s tree of names, down to depth levels, without exclude globs and .gitignored entries. Symlinks are shown, never followed.',
      inputSchema: {
        type: 'object',
        additionalProperties: false,
        properties: {
          path: { ...path, default: '.' },
          depth: { type: 'integer', minimum: 1, maximum: 20, default: 3 },
          exclude: globs,
          gitignore: { type: 'boolean', default: true },
        },
        examples: [{ path: '.', depth: 2, exclude: ['node_modules', '.git'] }],
      },
      outputSchema: fileResults.dir_tree,
      annotations: readOnly,
    },
    async (args, call) => {
      const real = await folder(args.path);
      const root: TreeNode[] = [];
      const byPath = new Map<string, TreeNode[]>([[real, root]]);
      const { truncated } = await walk(real, { maxDepth: args.depth, exclude: args.exclude, gitignore: args.gitignore, maxEntries: config.maxWalkEntries, refuseHardLinks: sandbox.refuseHardLinks, signal: call.signal }, (entry) => {
        const node: TreeNode = entry.isDir ? { name: entry.name, isDir: true, children: [] } : { name: entry.name, isDir: false };
        byPath.get(join(entry.path, '..'))?.push(node);
        if (node.children) byPath.set(entry.path, node.children);
      });
      return { path: sandbox.display(real), tree: root, truncated };
    },
  );

  ctx.tool(
    {
      name: 'file_find',
      title: 'Find files by name',
      description: 'Finds files and folders under path whose name or relative path matches a glob such as "**/*.test.ts" or "Dockerfile". To search contents use file_search.',
      inputSchema: {
        type: 'object',
        additionalProperties: false,
        required: ['pattern'],
        properties: {
          pattern: { type: 'string', minLength: 1, maxLength: 500 },
          path: { ...path, default: '.' },
          exclude: globs,
          gitignore: { type: 'boolean', default: true },
          max_results: { type: 'integer', minimum: 1, maximum: 5000, default: 200 },
        },
        examples: [{ pattern: '**/*.md', exclude: ['node_modules'], max_results: 20 }],
      },
      outputSchema: fileResults.file_find,
      annotations: readOnly,
    },
    async (args, call) => {
      const real = await folder(args.path);
      const matcher = picomatch(args.pattern, { dot: true });
      const matches: string[] = [];
      const walked = await walk(real, { exclude: args.exclude, gitignore: args.gitignore, maxEntries: config.maxWalkEntries, refuseHardLinks: sandbox.refuseHardLinks, signal: call.signal }, (entry) => {
        if (!matcher(entry.relative) && !matcher(entry.name)) return;
        // Stop at the first match past the limit, so that exactly max_results matches is not "truncated".
        if (matches.length === args.max_results) return false;
        matches.push(sandbox.display(entry.path));
      });
      return { matches, truncated: walked.truncated };
    },
  );

  ctx.tool(
    {
      name: 'file_search',
      title: 'Search file contents',
      description:
        'Searches text files under path for a literal string, or a JavaScript regular expression with regex, answering each match\'s path, line, column and text with context_lines around it. Skips binary, very large and .gitignored files.',
      inputSchema: {
        type: 'object',
        additionalProperties: false,
        required: ['query'],
        properties: {
          query: { type: 'string', minLength: 1, maxLength: 1000 },
          regex: { type: 'boolean', default: false },
          case_sensitive: { type: 'boolean', default: true },
          path: { ...path, default: '.' },
          include: { type: 'string', minLength: 1, maxLength: 500, description: 'Only files matching this glob, e.g. "*.ts".' },
          exclude: globs,
          gitignore: { type: 'boolean', default: true },
          context_lines: { type: 'integer', minimum: 0, maximum: 10, default: 0 },
          max_results: { type: 'integer', minimum: 1, maximum: 2000, default: 100 },
        },
        examples: [{ query: 'TODO', include: '*.ts', context_lines: 1, max_results: 20 }],
      },
      outputSchema: fileResults.file_search,
      annotations: readOnly,
      timeoutMs: 30_000,
    },
    async (
      args: { query: string; regex: boolean; case_sensitive: boolean; path: string; include?: string; exclude?: string[]; gitignore: boolean; context_lines: number; max_results: number },
      call,
    ) => {
      const real = await folder(args.path);
      const result = await searches.search(
        {
          start: real,
          query: args.query,
          regex: args.regex,
          caseSensitive: args.case_sensitive,
          include: args.include,
          exclude: args.exclude,
          gitignore: args.gitignore,
          contextLines: args.context_lines,
          maxResults: args.max_results,
          maxFileBytes: config.maxSearchFileBytes,
          maxEntries: config.maxWalkEntries,
          refuseHardLinks: sandbox.refuseHardLinks,
        },
        call.signal,
      );
      return { path: sandbox.display(real), ...result, matches: result.matches.map((m) => ({ ...m, path: sandbox.display(join(real, m.path)) })) };
    },
  );

  ctx.tool(
    {
      name: 'file_roots',
      title: 'Allowed roots',
      description: 'The folders this gateway may read and write. Relative paths are relative to the first one.',
      inputSchema: { type: 'object', additionalProperties: false, properties: {}, examples: [{}] },
      outputSchema: fileResults.file_roots,
      annotations: readOnly,
    },
    () => ({ roots: sandbox.roots }),
  );
}

/**
 * dir_list's detailed entries. Only regular files are lstat'ed (for their size): the folder's
 * listing already typed every entry. The lstats are synchronous, through the checked
 * descriptor: 200 of them through the thread pool cost about three times the CPU (a request,
 * a promise and a wake-up each) and were most of a listing's time. In batches, so that a huge
 * folder does not hold the event loop for long.
 */
async function describeEntries(dir: VerifiedDir, found: readonly FolderEntry[], shown: (name: string) => string) {
  const entries = [];
  for (let i = 0; i < found.length; i++) {
    if (i > 0 && i % LSTAT_BATCH === 0) await yieldToLoop();
    const { name, kind } = found[i]!;
    const info = kind === 'file' ? lstatOf(dir.at(name)) : undefined;
    // A file replaced since the listing is described as lstat saw it.
    const isDir = info ? info.isDirectory() : kind === 'folder';
    const isSymlink = info ? info.isSymbolicLink() : kind === 'link';
    entries.push({ name, path: shown(name), isDir, isSymlink, size: info?.isFile() ? info.size : 0 });
  }
  return entries;
}

/** An entry gone or unreadable since the listing (ENOENT, EACCES) is still listed, with size 0. */
function lstatOf(path: string): Stats | undefined {
  try {
    return lstatSync(path, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}
