import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { GATEWAY_BIN, ROOT, serverCommand, spawnNode, tempDir, writeGatewayConfig } from '../lib/children.js';
import { stdioClient } from '../lib/connect.js';
import { LIST_ENTRIES, writeListing } from '../lib/fs-fixtures.js';
import { closedLoop } from '../lib/load.js';
import type { BenchOptions } from '../lib/options.js';
import { summariseCosted, withServerCpu } from '../lib/process-cpu.js';
import { cpuProfileFlags, summariseProfile, type ProfileSummary } from '../lib/profile.js';
import type { RawMcpClient } from '../lib/raw-client.js';
import { int, met, ms, ratio, us, type SectionResult, type Target } from '../lib/report.js';
import { alternate, median, summarise } from '../lib/stats.js';

const TARGET = 1.2;
/** Issue 20: names-only listing ≥ 1.2× list_directory, the detailed one ≥ 1.0× list_directory_with_sizes. */
const LIST_TARGETS = { names: 1.2, full: 1.0 } as const;
const IN_FLIGHT = 16;
const NEEDLE = 'NEEDLE_7f3a';
const FS_SERVER = join(ROOT, 'node_modules', '@modelcontextprotocol', 'server-filesystem', 'dist', 'index.js');
const run = promisify(execFile);

/** A small text file: 60 lines of TypeScript-looking text, about 2.4 KiB. */
function smallFile(): string {
  return Array.from({ length: 60 }, (_, i) => `export const value${i} = ${i * 7}; // line ${i + 1} of the small benchmark file\n`).join('');
}

/**
 * `count` files of ~1.2 KiB in 100 folders; one file in 100 holds the needle once, so a
 * content search must read every file and finds count/100 matches.
 */
function writeTree(root: string, count: number): number {
  const lines = Array.from({ length: 24 }, (_, i) => `line ${i}: the quick brown fox jumps over the lazy dog ${i}`);
  let needles = 0;
  for (let d = 0; d < 100; d++) mkdirSync(join(root, `d_${String(d).padStart(3, '0')}`), { recursive: true });
  for (let i = 0; i < count; i++) {
    const body = [...lines];
    if (i % 100 === 42) {
      body[12] = `line 12: here is the ${NEEDLE} in file ${i}`;
      needles++;
    }
    writeFileSync(join(root, `d_${String(i % 100).padStart(3, '0')}`, `f_${String(i).padStart(5, '0')}.txt`), `${body.join('\n')}\n`);
  }
  return needles;
}

const textOf = (result: { content: Array<{ text?: string }> }) => result.content[0]?.text ?? '';

export async function filesSection(options: BenchOptions): Promise<SectionResult> {
  const workspace = tempDir('mcpgw-bench-ws-');
  const small = join(workspace, 'small.ts');
  const content = smallFile();
  writeFileSync(small, content);
  const listing = join(workspace, 'listing');
  writeListing(listing, LIST_ENTRIES);
  const tree = join(workspace, 'tree');
  const needles = writeTree(tree, options.treeFiles);
  const pattern = `**/f_${String(Math.min(4242, options.treeFiles - 1)).padStart(5, '0')}.txt`;
  // Flushed first, so that no comparison runs while the kernel writes the new files to disk.
  execFileSync('sync');

  const work = tempDir();
  const config = writeGatewayConfig(work, filesConfig(work, workspace), 'files.config.yaml');
  const oursChild = spawnNode(GATEWAY_BIN, ['--stdio', '--config', config]);
  const theirsChild = spawnNode(FS_SERVER, [workspace]);
  const ours = await stdioClient(oursChild);
  const theirs = await stdioClient(theirsChild);
  const rows: string[][] = [];
  const targets: Target[] = [];
  const profiles: ProfileSummary[] = [];
  try {
    const readOurs = async () => {
      const text = textOf(await ours.callTool('file_read', { path: small }));
      if (text.length < content.length) throw new Error('file_read returned less than the file');
    };
    const readTheirs = async () => {
      if (textOf(await theirs.callTool('read_text_file', { path: small })) !== content) throw new Error('read_text_file returned something else');
    };
    await readOurs();
    await readTheirs();
    const missed: number[] = [];
    // Both sides reach their steady speed first (BenchOptions.warmSeconds); both modes are then measured warm.
    for (const read of [readOurs, readTheirs]) await closedLoop(read, IN_FLIGHT, options.warmSeconds);
    for (const inFlight of [1, IN_FLIGHT]) {
      const side = (read: () => Promise<void>) => async () => (await closedLoop(read, inFlight, options.seconds)).perSecond;
      const result = summarise(
        await alternate({ name: 'gateway', run: side(readOurs) }, { name: 'filesystem', run: side(readTheirs) }, options.rounds),
      );
      const mode = inFlight === 1 ? 'sequential' : `${inFlight} in flight`;
      const ok = result.ratio >= TARGET;
      if (!ok) missed.push(inFlight);
      rows.push([`read a ${(content.length / 1024).toFixed(1)} KiB file, ${mode}`, `${int(result.a)}/s`, `${int(result.b)}/s`, ratio(result.ratio), `≥ ${ratio(TARGET)}`, met(ok)]);
      targets.push({ item: `3. Files: file_read / server-filesystem read_text_file, ${mode}`, value: ratio(result.ratio), target: `≥ ${ratio(TARGET)}`, met: ok });
      process.stderr.write(`  files read ${mode}: gateway ${int(result.a)}/s, filesystem ${int(result.b)}/s, ${ratio(result.ratio)}\n`);
    }

    // Listing a folder: names only against list_directory, the detailed listing against
    // list_directory_with_sizes; and names again with the folder changed before every call, so
    // that the gateway cannot serve a listing it kept (plugins/files/folder-listings.ts).
    const names = { mode: 'names' as const, ours: { detail: 'names' }, tool: 'list_directory', count: (text: string) => JSON.parse(text).names.length };
    const listings = [
      { ...names, changed: false },
      { ...names, changed: true },
      { mode: 'full' as const, changed: false, ours: { detail: 'full' }, tool: 'list_directory_with_sizes', count: (text: string) => JSON.parse(text).entries.length },
    ];
    let stamp = 0;
    for (const { mode, changed, ours: detail, tool, count } of listings) {
      // A new modification time is a change of the folder: its change time becomes now.
      const change = changed ? () => utimesSync(listing, ++stamp, stamp) : () => {};
      // Both answers are checked in full once; in the loop each side checks only that its text
      // names the last entry, so the bench's own checking costs both sides the same.
      const oursText = async () => textOf(await ours.callTool('dir_list', { path: listing, ...detail }));
      const theirsText = async () => textOf(await theirs.callTool(tool, { path: listing }));
      if (count(await oursText()) !== LIST_ENTRIES) throw new Error('dir_list listed another number of entries');
      if ((await theirsText()).match(/entry_\d+/g)?.length !== LIST_ENTRIES) throw new Error(`${tool} listed another number of entries`);
      const listOurs = async () => {
        change();
        if (!(await oursText()).includes('entry_199')) throw new Error('dir_list missed an entry');
      };
      const listTheirs = async () => {
        change();
        if (!(await theirsText()).includes('entry_199')) throw new Error(`${tool} missed an entry`);
      };
      for (const list of [listOurs, listTheirs]) await closedLoop(list, 1, options.warmSeconds);
      const side = (list: () => Promise<void>, pid: number) => () => withServerCpu(pid, () => closedLoop(list, 1, options.seconds));
      const result = summariseCosted(await alternate({ name: 'gateway', run: side(listOurs, oursChild.pid) }, { name: 'filesystem', run: side(listTheirs, theirsChild.pid) }, options.rounds));
      const target = changed ? undefined : LIST_TARGETS[mode];
      const ok = target === undefined ? null : result.ratio >= target;
      const label = `list a folder of ${LIST_ENTRIES} entries${changed ? ', changed before every call' : ''}: dir_list ${mode === 'names' ? 'detail names / list_directory' : '/ list_directory_with_sizes'}`;
      rows.push([label, `${int(result.a)}/s`, `${int(result.b)}/s`, ratio(result.ratio), target === undefined ? '—' : `≥ ${ratio(target)}`, ok === null ? '—' : met(ok)]);
      rows.push([`the same: server CPU per call (ratio: theirs / ours)`, us(result.cpuA), us(result.cpuB), ratio(result.cpuB / result.cpuA), '—', '—']);
      targets.push({ item: `3. Files: ${label}`, value: ratio(result.ratio), target: target === undefined ? '— (reported)' : `≥ ${ratio(target)}`, met: ok });
      process.stderr.write(`  files list ${mode}${changed ? ' (changed)' : ''}: gateway ${int(result.a)}/s, filesystem ${int(result.b)}/s, ${ratio(result.ratio)}; server CPU per call ${us(result.cpuA)} against ${us(result.cpuB)}\n`);
    }

    // Name search: both servers walk the whole tree and match a glob against each path.
    const timed = (fn: () => Promise<void>) => async () => {
      const t = performance.now();
      await fn();
      return performance.now() - t;
    };
    const findOurs = timed(async () => {
      const found = JSON.parse(textOf(await ours.callTool('file_find', { pattern, path: tree, gitignore: false }))) as { matches: string[] };
      if (found.matches.length !== 1) throw new Error(`file_find found ${found.matches.length} files`);
    });
    const findTheirs = timed(async () => {
      const text = textOf(await theirs.callTool('search_files', { path: tree, pattern }));
      if (text.split('\n').length !== 1 || !text.endsWith('.txt')) throw new Error(`search_files answered ${text.slice(0, 200)}`);
    });
    const find = await alternate({ name: 'gateway', run: findOurs }, { name: 'filesystem', run: findTheirs }, options.rounds, { a: findOurs, b: findTheirs });
    const findRatio = median(find.rounds.map(([o, t]) => t / o));
    rows.push([`find one file by glob in ${int(options.treeFiles)} files`, ms(median(find.rounds.map(([o]) => o))), ms(median(find.rounds.map(([, t]) => t))), ratio(findRatio), '—', '—']);
    targets.push({ item: `3. Files: file_find / search_files over ${int(options.treeFiles)} files (speed-up)`, value: ratio(findRatio), target: '— (reported)', met: null });

    // Content search: the filesystem server has none; GNU grep is the reference.
    const searchOurs = timed(async () => {
      const found = JSON.parse(textOf(await ours.callTool('file_search', { query: NEEDLE, path: tree, max_results: 2000, gitignore: false }))) as {
        matches: unknown[];
        filesScanned: number;
      };
      if (found.matches.length !== needles) throw new Error(`file_search found ${found.matches.length} matches, expected ${needles}`);
    });
    const searchGrep = timed(async () => {
      const { stdout } = await run(...serverCommand('grep', ['-rnF', NEEDLE, tree]), { maxBuffer: 16 * 1024 * 1024 });
      if (stdout.trim().split('\n').length !== needles) throw new Error('grep found a different number of matches');
    });
    const search = await alternate({ name: 'gateway', run: searchOurs }, { name: 'grep', run: searchGrep }, options.rounds, { a: searchOurs, b: searchGrep });
    const searchOursMs = median(search.rounds.map(([o]) => o));
    const searchGrepMs = median(search.rounds.map(([, g]) => g));
    rows.push([`content search of ${int(options.treeFiles)} files (${needles} matches)`, ms(searchOursMs), `${ms(searchGrepMs)} (grep -rnF)`, ratio(searchGrepMs / searchOursMs), '—', '—']);
    targets.push({ item: `3. Files: file_search over ${int(options.treeFiles)} files`, value: ms(searchOursMs), target: '— (reported; grep -rnF takes ' + ms(searchGrepMs) + ')', met: null });
    process.stderr.write(`  files search: find ${ratio(findRatio)}, content ${ms(searchOursMs)} vs grep ${ms(searchGrepMs)}\n`);

    if (options.profile && missed.length > 0) {
      profiles.push(await profileRead(workspace, small, missed[missed.length - 1]!, Math.max(4, options.seconds * 2)));
    }
  } finally {
    await Promise.allSettled([ours.close(), theirs.close()]);
  }

  return {
    id: 'files',
    title: '3. Files: the files plugin vs the official filesystem server',
    method: [
      `The same raw client loop over stdio against two child processes: **ours**, the real binary (\`mcp-gateway --stdio\`) with the files plugin and the default config (audit and metrics on), its workspace a temp folder; **theirs**, \`@modelcontextprotocol/server-filesystem\` (its \`dist/index.js\` on plain node) allowed the same folder. Both read the same ${(content.length / 1024).toFixed(1)} KiB file by absolute path: \`file_read\` (which also detects the language and returns JSON) against \`read_text_file\`. Ratio = ours / theirs; each side first runs ${options.warmSeconds} s unmeasured (steady speed, as in section 1), then ${options.rounds} alternating rounds of ${options.seconds} s, medians.`,
      `Listing: a folder of ${LIST_ENTRIES} entries (one in four a folder), listed by absolute path one call at a time: \`dir_list\` with \`detail: "names"\` (bare names, no stat) against \`list_directory\` (names with [FILE]/[DIR]), and \`dir_list\` with \`detail: "full"\` (name, path, isDir, isSymlink, size per entry, as JSON) against \`list_directory_with_sizes\`. Each side's answer is checked in full once (the number of entries); in the measured loop both check only that the answer's text names the last entry, so that the bench's own checking costs both sides the same (until this pass the gateway's side parsed its JSON text on every call: about 10 µs of the bench process's CPU against 2 µs for the substring check, measured alone). Warm-up, then alternating rounds, medians, as for reads. The gateway keeps the listing of an unchanged folder (plugins/files/folder-listings.ts: served again only while the folder's device, inode, change and modification times, size and link count are what they were; kept only once the folder has been unchanged for a second): the fixture is written before the warm-up, so the first names row and the detailed row measure listings served from what was kept, as an agent that lists the same folder again gets them (the detailed listing still looks at every file for its size). The row "changed before every call" sets the folder's modification time (\`utimes\`, in the bench process, before every call of both sides), which changes the folder's change time: every listing is then read from the folder, as a first listing is. Under each listing, the CPU time (user and system, from \`/proc/<pid>/stat\`, to the 10 ms tick) that each server process spent per call, the median of the rounds: the throughput ratio also carries the bench client's cost (larger for the gateway's answer, which carries the names twice, as text and as structured content) and the host's swings.`,
      `Search: a generated tree of ${int(options.treeFiles)} files of ~1.2 KiB in 100 folders. Name search: \`file_find\` with \`gitignore: false\` against \`search_files\`, both matching \`${pattern}\` against every path (ratio = their time / ours, higher is better for us). Content search: \`file_search\` for a literal found in ${needles} files, which reads every file; the filesystem server has no content search, so GNU \`grep -rnF\` (spawned, wall time) is shown as the floor. Each search is timed per call, ${options.rounds} alternating rounds after one warm-up each, medians.`,
    ],
    tables: [{ columns: ['operation', 'gateway (files)', 'server-filesystem', 'ratio', 'target', 'met'], rows }],
    targets,
    profiles,
  };
}

function filesConfig(work: string, workspace: string): Record<string, unknown> {
  return { dataDir: join(work, 'data'), workspace, logLevel: 'info', plugins: { files: {} } };
}

async function profileRead(workspace: string, file: string, inFlight: number, seconds: number): Promise<ProfileSummary> {
  const { nodeArgs, dir } = cpuProfileFlags();
  const work = tempDir();
  const config = writeGatewayConfig(work, filesConfig(work, workspace), 'files.config.yaml');
  const client: RawMcpClient = await stdioClient(spawnNode(GATEWAY_BIN, ['--stdio', '--config', config], { nodeArgs }));
  await closedLoop(() => client.callTool('file_read', { path: file }), inFlight, seconds);
  await client.close();
  return summariseProfile(dir, `Gateway file_read over stdio, ${inFlight === 1 ? 'sequential' : `${inFlight} in flight`}`);
}
