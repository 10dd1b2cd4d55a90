// Each worker's own git worktree (branch collab/<name>) under <collab dataDir>/worktrees, when
// the workspace is a git repository: created at spawn, committed on request, removed at
// dismissal with its branch kept. git runs through execFile (no shell), and never pushes.
// Nor does it run anything the repository's config names (see HARDENED): anyone who can write
// the workspace — an agent with file tools — can write .git/config, and a spawn, commit or
// dismissal must not run their commands with the gateway's rights.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, realpathSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { promisify } from 'node:util';
import type { CollabContext } from '../context.js';
import type { Worktree } from './worker.js';

const run = promisify(execFile);
const GIT_TIMEOUT_MS = 60_000;

/**
 * Before every git command: no hooks (hooksPath also covers post-checkout on `worktree add`
 * and post-commit, which --no-verify does not), no fsmonitor (core.fsmonitor names a command
 * that `status` runs, or starts a daemon), no signing program, no automatic gc (it runs hooks
 * and leaves processes behind), no submodule recursion, no pager. diff.external and textconv
 * run only for diff and log, and core.sshCommand, credential helpers and askpass only for a
 * transport: we run none of them, and the environment (GIT_ALLOW_PROTOCOL) forbids every
 * transport, also the lazy fetch of a partial clone. Filters are disabled per call
 * (filterOverrides).
 */
const HARDENED = [
  '--no-pager',
  '-c', 'core.hooksPath=/dev/null',
  '-c', 'core.fsmonitor=false',
  '-c', 'commit.gpgSign=false',
  '-c', 'gc.auto=0',
  '-c', 'maintenance.auto=false',
  '-c', 'submodule.recurse=false',
];

const FILTER_KEY = /^filter\.(.+)\.(?:clean|smudge|process)$/;

export interface CommitResult {
  readonly committed: boolean;
  /** The new commit's hash; null when there was nothing to commit. */
  readonly commit: string | null;
  /** Paths changed (added, modified, deleted) that the commit took. */
  readonly files: number;
}

export class Worktrees {
  readonly #ctx: CollabContext;
  readonly #root: string;
  /** The repository's top folder, once looked up; null when the workspace is not in one. */
  #top: Promise<string | null> | undefined;

  constructor(ctx: CollabContext) {
    this.#ctx = ctx;
    this.#root = join(ctx.dataDir, 'worktrees');
  }

  /** The top of the git repository holding the workspace, or null. */
  repository(): Promise<string | null> {
    this.#top ??= this.#git(this.#ctx.workspace.root, ['rev-parse', '--show-toplevel']).then(
      (out) => resolve(out.trim()),
      () => null,
    );
    return this.#top;
  }

  /**
   * The worktree of `name` (made now, or the one an earlier run left), on branch collab/<name>
   * (made from HEAD, or the existing branch). Returns it and the workspace's place in it.
   */
  async create(name: string): Promise<{ worktree: Worktree; cwd: string }> {
    const top = (await this.repository())!;
    mkdirSync(this.#root, { recursive: true, mode: 0o700 });
    // Real path: git lists worktrees by it.
    const worktree = { path: join(realpathSync(this.#root), name), branch: `collab/${name}` };
    // A folder deleted by hand leaves an entry that would refuse the add.
    await this.#git(top, ['worktree', 'prune']);
    if (!(await this.#registered(top, worktree.path))) {
      if (existsSync(worktree.path)) {
        throw this.#ctx.error('COLLAB_WORKTREE_FAILED', `${worktree.path} exists and is not a worktree of ${top}: move it away, or spawn under another name.`, { path: worktree.path });
      }
      const branchExists = await this.#git(top, ['rev-parse', '--verify', '--quiet', `refs/heads/${worktree.branch}`]).then(() => true, () => false);
      await this.#gitOrFail(top, branchExists ? ['worktree', 'add', worktree.path, worktree.branch] : ['worktree', 'add', worktree.path, '-b', worktree.branch], 'create');
    }
    return { worktree, cwd: join(worktree.path, relative(top, this.#ctx.workspace.root)) };
  }

  /** Commits every change in the worktree (as the worker); nothing to commit is an answer, not an error. */
  async commit(worktree: Worktree, message: string, author: string): Promise<CommitResult> {
    const status = await this.#gitOrFail(worktree.path, ['status', '--porcelain'], 'commit');
    const files = status.split('\n').filter((line) => line.trim() !== '').length;
    if (files === 0) return { committed: false, commit: null, files: 0 };
    await this.#gitOrFail(worktree.path, ['add', '--all'], 'commit');
    const email = `${author}@collab.invalid`;
    const env = { GIT_AUTHOR_NAME: author, GIT_AUTHOR_EMAIL: email, GIT_COMMITTER_NAME: author, GIT_COMMITTER_EMAIL: email };
    await this.#gitOrFail(worktree.path, ['commit', '--quiet', '--no-verify', '-m', message], 'commit', env);
    const commit = (await this.#gitOrFail(worktree.path, ['rev-parse', 'HEAD'], 'commit')).trim();
    return { committed: true, commit, files };
  }

  /** Removes the worktree folder (uncommitted changes go with it); the branch stays. */
  async remove(worktree: Worktree): Promise<void> {
    const top = await this.repository();
    if (top === null || !existsSync(worktree.path)) return;
    await this.#gitOrFail(top, ['worktree', 'remove', '--force', worktree.path], 'remove');
  }

  async #registered(top: string, path: string): Promise<boolean> {
    const list = await this.#git(top, ['worktree', 'list', '--porcelain']);
    return list.split('\n').some((line) => line === `worktree ${path}`);
  }

  async #gitOrFail(cwd: string, args: string[], what: string, env: Record<string, string> = {}): Promise<string> {
    try {
      return await this.#git(cwd, args, env);
    } catch (err) {
      const stderr = String((err as { stderr?: string }).stderr ?? (err as Error).message).trim().slice(0, 2000);
      throw this.#ctx.error('COLLAB_WORKTREE_FAILED', `git could not ${what} the worktree (git ${args[0]}): ${stderr.split('\n')[0]}`, { stderr, cwd });
    }
  }

  async #git(cwd: string, args: string[], env: Record<string, string> = {}): Promise<string> {
    return this.#run(cwd, [...HARDENED, ...(await this.#filterOverrides(cwd)), ...args], env);
  }

  /**
   * Clean, smudge and process filters are programs the config names, run by `worktree add`,
   * `status`, `add` and `commit` for files .gitattributes (committed content) selects: each
   * one configured is emptied for the call (files then go in and out as they are stored — an
   * LFS file stays a pointer in a worker's worktree).
   */
  async #filterOverrides(cwd: string): Promise<string[]> {
    // Exit code 1 is "no such key": no filter is configured.
    const names = await this.#run(cwd, [...HARDENED, 'config', '--name-only', '--get-regexp', '^filter\\..*\\.(clean|smudge|process)$']).catch(() => '');
    const drivers = new Set(names.split('\n').flatMap((key) => FILTER_KEY.exec(key.trim())?.[1] ?? []));
    return [...drivers].flatMap((driver) => ['clean', 'smudge', 'process'].flatMap((key) => ['-c', `filter.${driver}.${key}=`]).concat('-c', `filter.${driver}.required=false`));
  }

  async #run(cwd: string, args: string[], env: Record<string, string> = {}): Promise<string> {
    // No prompt may wait for a terminal nobody watches; no transport may start (see HARDENED).
    const { stdout } = await run('git', args, { cwd, timeout: GIT_TIMEOUT_MS, env: { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_PAGER: 'cat', GIT_ALLOW_PROTOCOL: '', ...env } });
    return stdout;
  }
}
