// The workspace as collab_session_context shows it: its folder's name and the git branch
// checked out. The branch is read from HEAD as a file: a tool call never runs git.
import { basename, join, resolve } from 'node:path';
import { readFileNoFollow } from '@mcp-gateway/core';

export interface WorkspaceInfo {
  name: string;
  /** The branch HEAD names; null when detached, or when the workspace is not a git repository. */
  git_branch: string | null;
}

/** HEAD and a worktree's `.git` file are a line each; anything bigger is not what we look for. */
const MAX_GIT_FILE_BYTES = 4096;

export async function workspaceInfo(root: string): Promise<WorkspaceInfo> {
  return { name: basename(root), git_branch: await gitBranch(root) };
}

async function gitBranch(root: string): Promise<string | null> {
  const dotGit = join(root, '.git');
  // A linked worktree's .git is a file "gitdir: <path>" naming the folder that holds its HEAD.
  const pointer = await smallFile(dotGit);
  const gitDir = pointer === undefined ? dotGit : /^gitdir:\s*(.+)$/m.exec(pointer)?.[1]?.trim();
  if (gitDir === undefined) return null;
  const head = await smallFile(join(resolve(root, gitDir), 'HEAD'));
  return head === undefined ? null : (/^ref:\s*refs\/heads\/(\S+)/.exec(head)?.[1] ?? null);
}

/** A small regular file's text; undefined for a folder, a FIFO, a symlink, a big or missing file. */
async function smallFile(path: string): Promise<string | undefined> {
  try {
    const read = await readFileNoFollow(path, (info) => (info.isFile() && info.size <= MAX_GIT_FILE_BYTES ? undefined : 'skip'));
    return 'bytes' in read ? read.bytes.toString('utf8') : undefined;
  } catch {
    return undefined;
  }
}
