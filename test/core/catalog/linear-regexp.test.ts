// The engine foreign schemas' patterns run on where it can: RE2 (linear time) with ECMAScript's
// meaning. Patterns that backtrack for hours on V8 return at once; the others answer as V8
// does; what RE2 cannot run with that meaning throws with the reason (foreign-schema.ts then
// runs it on V8's engine: hostile-patterns.test.ts).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { linearRegExp, MAX_PATTERN_SIZE } from '../../../core/catalog/linear-regexp.js';
import { runWithin, TimeBoundExceeded } from '../../../core/catalog/time-bound.js';

const compile = (pattern: string) => linearRegExp(pattern, 'u');

describe('linearRegExp', () => {
  it("answers the issue's probe, ^(a+)+$ against 28 and 40 a's and a '!', without backtracking", () => {
    // On V8, 28 a's took 16.8 s and each one more doubles it: this test would not end.
    const nested = compile('^(a+)+$');
    assert.equal(nested.test(`${'a'.repeat(28)}!`), false);
    assert.equal(nested.test(`${'a'.repeat(40)}!`), false);
    assert.equal(nested.test('a'.repeat(40)), true);
    // Other classic shapes, on inputs V8 would never finish.
    assert.equal(compile('^(a|aa)+$').test(`${'a'.repeat(5000)}!`), false);
    assert.equal(compile('^(\\w+\\s?)*$').test(`${'word '.repeat(2000)}!`), false);
    assert.equal(compile('^([a-zA-Z0-9])(([\\-.]|[_]+)?([a-zA-Z0-9]+))*(@){1}[a-z0-9]+[.]{1}(([a-z]{2,3})|([a-z]{2,3}[.]{1}[a-z]{2,3}))$').test(`${'a'.repeat(5000)}!`), false);
  });

  // Patterns V8 runs safely on these inputs: both engines must give the same answer.
  const sameAsV8: Array<[string, string[]]> = [
    ['^a.b$', ['a\rb', 'a\nb', 'axb', 'a\u2028b', 'a\u{1F600}b']],
    ['^\\s$', [' ', '\t', '\u00a0', '\v', '\ufeff', '\u3000', 'x']],
    ['^\\S+$', ['abc', 'a b', 'a\u00a0b']],
    ['^[\\s\\d]+$', ['1 2', '1\u00a02', 'a']],
    ['^[^\\s]+$', ['ab', 'a\u3000b']],
    ['^\\p{L}+$', ['héllo', 'h1']],
    ['^\\p{Letter}+$', ['héllo', 'h1']],
    ['^\\p{Script=Greek}+$', ['αβ', 'ab']],
    ['^\\p{gc=Lu}$', ['A', 'a']],
    ['^\\u00e9\\u{1F600}$', ['é\u{1F600}', 'e']],
    ['^(?<year>\\d{4})-(?:\\d{2})$', ['2024-05', '2024-5']],
    ['^[^]$', ['\n', '']],
    ['^[]$', ['', 'a']],
    ['^\\/\\.$', ['/.', 'x.']],
    ['^[\\]\\-]+$', [']-', 'a']],
    ['a$', ['a\n', 'ba']],
    ['^\\w+\\b', ['héllo', 'abc d']],
    ['\\cJ', ['\n', 'J']],
    ['^[\\u{1F600}-\\u{1F64F}]$', ['\u{1F600}', 'a']],
    ['^.$', ['\u{1F600}']],
    ['^\\\\s$', ['\\s', ' ']],
    ['^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$', ['123e4567-e89b-12d3-a456-426614174000', '123e4567']],
    ['^[a-z][a-z0-9_-]{0,63}$', ['fix_pid', '9lives']],
    ['colou?r', ['my color', 'colr']],
  ];
  for (const [pattern, inputs] of sameAsV8) {
    it(`means what V8 means by ${pattern}`, () => {
      const ours = compile(pattern);
      const v8 = new RegExp(pattern, 'u');
      for (const input of inputs) assert.equal(ours.test(input), v8.test(input), JSON.stringify(input));
    });
  }

  const leftToV8: Array<[string, RegExp]> = [
    ['^(a)\\1$', /backreferences are not supported/],
    ['^(?<c>a)\\k<c>$', /backreferences are not supported/],
    ['^(?!.*\\.\\.).*$', /lookarounds \(here "\(\?!"\) are not supported/],
    ['^a(?=b)', /lookarounds \(here "\(\?="\)/],
    ['(?<=a)b', /lookarounds \(here "\(\?<="\)/],
    ['(?<!a)b', /lookarounds \(here "\(\?<!"\)/],
    ['^a{1,1001}$', /cannot run on the gateway's linear-time engine \(RE2\): .*invalid repeat count/],
    ['\\p{scx=Greek}', /cannot run on the gateway's linear-time engine/],
    ['[a-z]{1000}'.repeat(11), new RegExp(`compiles to \\d+ instructions, more than the ${MAX_PATTERN_SIZE} RE2 is given`)],
  ];
  for (const [pattern, reason] of leftToV8) {
    it(`does not run ${pattern.length > 40 ? `${pattern.slice(0, 40)}…` : pattern}, naming it and why`, () => {
      assert.throws(() => compile(pattern), (err: Error) => reason.test(err.message) && err.message.includes(JSON.stringify(pattern).slice(0, 60)));
    });
  }

  it('answers right after a test stopped half way by the time bound', () => {
    // Linear, but slow: RE2's DFA gives up on this one and its NFA walks 7,000 instructions a character.
    const slow = compile('^(?:a|aa|aaa){0,900}$');
    assert.throws(() => runWithin(20, () => slow.test('a'.repeat(20_000))), TimeBoundExceeded);
    assert.equal(slow.test('aaaa'), true);
    assert.equal(slow.test('aab'), false);
  });

  it('gives each pattern its own key, which ajv shares compiled patterns by', () => {
    assert.notEqual(String(compile('^a+$')), String(compile('^b+$')));
    assert.equal(String(compile('^a+$')), '/^a+$/u');
  });
});
