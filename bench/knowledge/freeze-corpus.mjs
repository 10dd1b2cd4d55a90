#!/usr/bin/env node
// Writes bench/knowledge/corpus.json: the files the labelled set was written against, as they
// were at one commit of this repository, so that the labels hold however the code and docs
// change after it:
//   node bench/knowledge/freeze-corpus.mjs <commit>
// It takes every Markdown file the retrieval bench ingests (README.md, docs/*.md but
// performance.md, plugins/*/README.md) and every file an evidence item of graph-nodes.json
// cites. Run check-labels.mjs after it.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isIngested } from './corpus.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, '..', '..');
const commit = process.argv[2];
if (!commit) {
  console.error('usage: node bench/knowledge/freeze-corpus.mjs <commit>');
  process.exit(2);
}

const git = (...args) => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
const full = git('rev-parse', '--verify', `${commit}^{commit}`).trim();
const tracked = git('ls-tree', '-r', '--name-only', full).split('\n').filter(Boolean);
const nodes = JSON.parse(readFileSync(join(HERE, 'graph-nodes.json'), 'utf8'));
const cited = nodes.flatMap((node) => node.evidence.map((item) => item.path));
const paths = [...new Set([...tracked.filter(isIngested), ...cited])].sort();

const files = Object.fromEntries(paths.map((path) => [path, git('show', `${full}:${path}`)]));
writeFileSync(join(HERE, 'corpus.json'), `${JSON.stringify({ commit: full, files }, null, 1)}\n`);
console.log(`freeze-corpus: ${paths.length} files of ${full.slice(0, 12)} written to bench/knowledge/corpus.json`);
