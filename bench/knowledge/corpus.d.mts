// Types of corpus.mjs, for the bench's TypeScript.
export function isIngested(path: string): boolean;
export function readCorpus(): { commit: string; files: Record<string, string> };
export function writeCorpus(dir: string): string;
