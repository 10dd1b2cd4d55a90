import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { it } from 'node:test';
import { ROOT } from '../helpers.js';

// The retrieval bench's labels hold against their frozen corpus (bench/knowledge/README.md):
// an edit of either that breaks a label fails here, not in the middle of a bench run.
it('the labelled retrieval set holds against its corpus', () => {
  const out = execFileSync(process.execPath, [join(ROOT, 'bench', 'knowledge', 'check-labels.mjs')], { encoding: 'utf8' });
  assert.match(out, /^check-labels: ok against the corpus of b81ce18dc3f7 — 130 rag questions .* 40 nodes, 82 evidence items verified/);
});
