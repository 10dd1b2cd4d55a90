// The frozen corpus of the labelled set (corpus.json, written by freeze-corpus.mjs): what the
// retrieval bench ingests and verifies evidence against, and what check-labels.mjs checks.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));

/** Whether the retrieval bench ingests `path` into its collection (the same globs it passes to rag_ingest). */
export function isIngested(path) {
  if (path === 'README.md') return true;
  if (/^plugins\/[^/]+\/README\.md$/.test(path)) return true;
  return /^docs\/[^/]+\.md$/.test(path) && path !== 'docs/performance.md';
}

/** `{commit, files}`: the commit the corpus was taken from, and each file's text by its path. */
export function readCorpus() {
  return JSON.parse(readFileSync(join(HERE, 'corpus.json'), 'utf8'));
}

/** Writes the corpus's files under `dir` (a workspace for the bench's gateway). */
export function writeCorpus(dir) {
  const { files } = readCorpus();
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}
