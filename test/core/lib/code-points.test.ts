// firstCodePoints: how brain and knowledge cut a client's name to their agent id's maxLength.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { firstCodePoints } from '../../../core/lib/code-points.js';

describe('firstCodePoints', () => {
  const cases: Array<[string, string, number, string]> = [
    ['a text within the cap, as it is', 'agent', 8, 'agent'],
    ['a text at the cap, as it is', 'agent', 5, 'agent'],
    ['ASCII, cut', 'agent-name', 5, 'agent'],
    ['a surrogate pair counts as one character and is never split', '😀😀😀', 2, '😀😀'],
    ['mixed, counted in code points', 'a😀b😀c', 3, 'a😀b'],
    ['a short string of pairs longer in UTF-16 units than the cap', '😀😀', 3, '😀😀'],
    ['nothing, for a cap of 0', 'agent', 0, ''],
  ];
  for (const [label, text, max, expected] of cases) {
    it(label, () => assert.equal(firstCodePoints(text, max), expected));
  }

  it('cuts a 10 MiB name to its first characters, as JSON Schema counts them', () => {
    const name = `😀${'n'.repeat(10 * 1024 * 1024)}`;
    const cut = firstCodePoints(name, 128);
    assert.equal(cut, `😀${'n'.repeat(127)}`);
    assert.equal([...cut].length, 128);
  });
});
