#!/usr/bin/env node
// Checks the labelled retrieval set of bench/knowledge against its frozen corpus (corpus.json,
// the repository's files at the commit the labels were written against):
//   node bench/knowledge/check-labels.mjs        (from the repository root, or anywhere)
// rag-questions.json: each source is an allowed Markdown file that has the heading (exact text
// of a heading line outside code fences, without the #'s, and only once in that file).
// graph-nodes.json: each evidence file exists and its snippet occurs, whitespace-normalised
// (lines trimmed, runs of blanks as one space, blank lines dropped), in the file and within
// the cited lines. graph-questions.json: each key names a node. Ids unique; counts at least
// the minimums. Exit status 1 with the list of problems, 0 when everything holds.
import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isIngested, readCorpus } from './corpus.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const corpus = readCorpus();

const MIN_RAG = 70;
const MIN_RAG_SOURCES = 8;
const MIN_NODES = 30;
const MAX_NODES = 40;
const MIN_GRAPH_QUESTIONS = 30;
const NODE_TYPES = new Set(['decision', 'feature', 'pattern', 'constraint', 'dependency', 'risk', 'note']);

const problems = [];
const warnings = [];
const problem = (where, what) => problems.push(`${where}: ${what}`);
const warn = (where, what) => warnings.push(`${where}: ${what}`);

function loadJson(name) {
  const file = join(HERE, name);
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    problem(name, `cannot be read as JSON (${err.message})`);
    return undefined;
  }
}

/** The text of a file of the corpus, or undefined (with a problem) for a path it does not hold. */
function corpusFile(where, path) {
  if (typeof path !== 'string' || path === '') {
    problem(where, 'path must be a non-empty string');
    return undefined;
  }
  if (isAbsolute(path) || normalize(path).split(sep).includes('..')) {
    problem(where, `path "${path}" must be relative to the repository root, without ..`);
    return undefined;
  }
  if (!Object.hasOwn(corpus.files, path)) {
    problem(where, `file "${path}" is not in the corpus (freeze-corpus.mjs takes every cited file)`);
    return undefined;
  }
  return corpus.files[path];
}

/** Trimmed lines, runs of blanks as one space, blank lines dropped (as the knowledge plugin's verifier does). */
function normalise(text) {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim().replace(/\s+/g, ' '))
    .filter((line) => line !== '')
    .join('\n');
}

/** The headings of a Markdown text, outside fenced code blocks: [{level, text, line}]. */
function headingsOf(text) {
  const headings = [];
  let fence = null;
  text.split(/\r?\n/).forEach((line, i) => {
    const opener = /^\s{0,3}(`{3,}|~{3,})/.exec(line);
    if (opener) {
      if (fence === null) fence = opener[1];
      else if (opener[1][0] === fence[0] && opener[1].length >= fence.length && line.trim() === opener[1]) fence = null;
      return;
    }
    if (fence !== null) return;
    const match = /^(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/.exec(line);
    if (match) headings.push({ level: match[1].length, text: match[2], line: i + 1 });
  });
  return headings;
}

function checkIds(name, items, field, pattern) {
  const seen = new Set();
  items.forEach((item, i) => {
    const id = item?.[field];
    const where = `${name}[${i}]`;
    if (typeof id !== 'string' || !pattern.test(id)) problem(where, `${field} ${JSON.stringify(id)} must match ${pattern}`);
    else if (seen.has(id)) problem(where, `${field} "${id}" is used twice`);
    else seen.add(id);
  });
  return seen;
}

function nonEmptyString(value) {
  return typeof value === 'string' && value.trim() !== '';
}

// ---------------------------------------------------------------- rag-questions.json
const rag = loadJson('rag-questions.json');
if (rag !== undefined) {
  if (!Array.isArray(rag)) problem('rag-questions.json', 'must be a JSON array');
  else {
    if (rag.length < MIN_RAG) problem('rag-questions.json', `${rag.length} questions; at least ${MIN_RAG} are required`);
    checkIds('rag-questions.json', rag, 'id', /^r\d{2,}$/);
    const headingCache = new Map();
    const sources = new Set();
    const questions = new Set();
    rag.forEach((item, i) => {
      const where = `rag-questions.json[${i}] (${item?.id})`;
      for (const field of ['question', 'source', 'heading']) {
        if (!nonEmptyString(item?.[field])) problem(where, `${field} must be a non-empty string`);
      }
      const extra = Object.keys(item ?? {}).filter((k) => !['id', 'question', 'source', 'heading'].includes(k));
      if (extra.length > 0) problem(where, `unknown fields: ${extra.join(', ')}`);
      if (!nonEmptyString(item?.source) || !nonEmptyString(item?.heading)) return;
      if (questions.has(item.question)) problem(where, 'the same question is asked twice');
      questions.add(item.question);
      if (!isIngested(item.source)) {
        problem(where, `source "${item.source}" is not README.md, plugins/*/README.md or docs/*.md (performance.md excluded)`);
        return;
      }
      const text = corpusFile(where, item.source);
      if (text === undefined) return;
      sources.add(item.source);
      if (!headingCache.has(item.source)) headingCache.set(item.source, headingsOf(text));
      const matches = headingCache.get(item.source).filter((h) => h.text === item.heading);
      if (matches.length === 0) {
        const near = headingCache.get(item.source).filter((h) => h.text.toLowerCase().includes(item.heading.toLowerCase()) || item.heading.toLowerCase().includes(h.text.toLowerCase()));
        problem(where, `no heading "${item.heading}" in ${item.source}${near.length ? ` (did you mean ${near.map((h) => `"${h.text}"`).join(', ')}?)` : ''}`);
      } else if (matches.length > 1) {
        problem(where, `heading "${item.heading}" occurs ${matches.length} times in ${item.source} (lines ${matches.map((h) => h.line).join(', ')}): the label is ambiguous`);
      }
      if (item.heading.split(/\s+/).length >= 3 && item.question.toLowerCase().includes(item.heading.toLowerCase())) {
        warn(where, 'the question repeats its heading word for word');
      }
    });
    if (sources.size < MIN_RAG_SOURCES) problem('rag-questions.json', `questions cover ${sources.size} files; at least ${MIN_RAG_SOURCES} are required`);
  }
}

// ---------------------------------------------------------------- graph-nodes.json
const nodes = loadJson('graph-nodes.json');
let keys = new Set();
if (nodes !== undefined) {
  if (!Array.isArray(nodes)) problem('graph-nodes.json', 'must be a JSON array');
  else {
    if (nodes.length < MIN_NODES || nodes.length > MAX_NODES) problem('graph-nodes.json', `${nodes.length} nodes; between ${MIN_NODES} and ${MAX_NODES} are required`);
    keys = checkIds('graph-nodes.json', nodes, 'key', /^k\d{2,}$/);
    const contents = new Set();
    nodes.forEach((node, i) => {
      const where = `graph-nodes.json[${i}] (${node?.key})`;
      if (!NODE_TYPES.has(node?.type)) problem(where, `type ${JSON.stringify(node?.type)} must be one of ${[...NODE_TYPES].join(', ')}`);
      if (!nonEmptyString(node?.summary) || /\n/.test(node.summary)) problem(where, 'summary must be one non-empty line');
      if (!nonEmptyString(node?.content)) problem(where, 'content must be a non-empty string');
      else {
        const sentences = node.content.split(/(?<=[.!?])\s+(?=[A-Z`(])/).filter((s) => s.trim() !== '').length;
        if (sentences < 2 || sentences > 5) problem(where, `content has ${sentences} sentences; 2 to 5 are required`);
        const key = node.content.toLowerCase().replace(/\s+/g, ' ').trim();
        if (contents.has(key)) problem(where, 'content duplicates another node (the plugin refuses duplicates)');
        contents.add(key);
      }
      if (!Array.isArray(node?.tags) || node.tags.length === 0 || !node.tags.every(nonEmptyString)) problem(where, 'tags must be a non-empty list of strings');
      if (!Array.isArray(node?.evidence) || node.evidence.length === 0) {
        problem(where, 'evidence must be a non-empty list');
        return;
      }
      node.evidence.forEach((item, j) => {
        const at = `${where} evidence[${j}]`;
        const text = corpusFile(at, item?.path);
        if (!nonEmptyString(item?.snippet)) {
          problem(at, 'snippet must be a non-empty string');
          return;
        }
        const snippet = normalise(item.snippet);
        const snippetLines = snippet.split('\n').length;
        if (snippetLines > 3) problem(at, `snippet has ${snippetLines} lines; 1 to 3 are expected`);
        const { start_line: start, end_line: end } = item;
        if (!Number.isInteger(start) || !Number.isInteger(end) || start < 1 || end < start) {
          problem(at, `start_line ${start} and end_line ${end} must be integers with 1 <= start_line <= end_line`);
          return;
        }
        if (text === undefined) return;
        const lines = text.split(/\r?\n/);
        if (!normalise(text).includes(snippet)) {
          problem(at, `snippet not found in ${item.path} (whitespace-normalised): ${JSON.stringify(item.snippet.slice(0, 80))}`);
          return;
        }
        if (end > lines.length) {
          problem(at, `end_line ${end} is past the end of ${item.path} (${lines.length} lines)`);
          return;
        }
        const cited = normalise(lines.slice(start - 1, end).join('\n'));
        if (!cited.includes(snippet)) {
          const firstLine = snippet.split('\n')[0];
          const where = lines.findIndex((l) => normalise(l).includes(firstLine));
          problem(at, `snippet is in ${item.path} but not within lines ${start}-${end}${where >= 0 ? ` (its first line is at line ${where + 1})` : ''}`);
        }
      });
    });
  }
}

// ---------------------------------------------------------------- graph-questions.json
const graphQuestions = loadJson('graph-questions.json');
if (graphQuestions !== undefined) {
  if (!Array.isArray(graphQuestions)) problem('graph-questions.json', 'must be a JSON array');
  else {
    if (graphQuestions.length < MIN_GRAPH_QUESTIONS) problem('graph-questions.json', `${graphQuestions.length} questions; at least ${MIN_GRAPH_QUESTIONS} are required`);
    checkIds('graph-questions.json', graphQuestions, 'id', /^g\d{2,}$/);
    graphQuestions.forEach((item, i) => {
      const where = `graph-questions.json[${i}] (${item?.id})`;
      if (!nonEmptyString(item?.question)) problem(where, 'question must be a non-empty string');
      if (!keys.has(item?.key)) problem(where, `key ${JSON.stringify(item?.key)} names no node of graph-nodes.json`);
    });
    const asked = new Set(graphQuestions.map((q) => q?.key));
    const unasked = [...keys].filter((k) => !asked.has(k));
    if (unasked.length > 0) warn('graph-questions.json', `no question for ${unasked.length} node(s): ${unasked.join(', ')}`);
  }
}

// ---------------------------------------------------------------- report
for (const w of warnings) console.warn(`warning: ${w}`);
if (problems.length > 0) {
  console.error(`check-labels: ${problems.length} problem(s) in bench/knowledge (corpus of ${corpus.commit.slice(0, 12)}):`);
  for (const p of problems) console.error(`  - ${p}`);
  process.exit(1);
}
const ragCount = Array.isArray(rag) ? rag.length : 0;
const ragFiles = Array.isArray(rag) ? new Set(rag.map((q) => q.source)).size : 0;
const ragHeadings = Array.isArray(rag) ? new Set(rag.map((q) => `${q.source}#${q.heading}`)).size : 0;
console.log(
  `check-labels: ok against the corpus of ${corpus.commit.slice(0, 12)} — ${ragCount} rag questions over ${ragFiles} files and ${ragHeadings} headings; ` +
    `${Array.isArray(nodes) ? nodes.length : 0} nodes, ${Array.isArray(nodes) ? nodes.reduce((n, x) => n + x.evidence.length, 0) : 0} evidence items verified; ` +
    `${Array.isArray(graphQuestions) ? graphQuestions.length : 0} graph questions.`,
);
