import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isValidUri, MAX_URI_CHARS, parseUriTemplate } from '../../../core/catalog/uri-template.js';

describe('URI templates (RFC 6570 levels 1-3)', () => {
  const matches: Array<[string, string, Record<string, string> | undefined]> = [
    ['notes://n/{id}', 'notes://n/abc', { id: 'abc' }],
    ['notes://n/{id}', 'notes://n/a%20b', { id: 'a b' }],
    ['notes://n/{id}', 'notes://n/', undefined],
    ['notes://n/{id}', 'notes://n/a/b', undefined],
    ['notes://n/{id}.txt', 'notes://n/report.v2.txt', { id: 'report.v2' }],
    ['file:///{+path}', 'file:///src/core/a.ts', { path: 'src/core/a.ts' }],
    ['notes://{x,y}', 'notes://1,2', { x: '1', y: '2' }],
    ['notes://{x,y}', 'notes://1', { x: '1' }],
    ['notes://n{/a,b}', 'notes://n/one/two', { a: 'one', b: 'two' }],
    ['notes://n{/a,b}', 'notes://n/one', { a: 'one' }],
    ['notes://n{.ext}', 'notes://n.md', { ext: 'md' }],
    ['notes://n{;v}', 'notes://n;v=3', { v: '3' }],
    ['notes://s{?q,limit}', 'notes://s?q=hi&limit=5', { q: 'hi', limit: '5' }],
    ['notes://s{?q,limit}', 'notes://s?limit=5', { limit: '5' }],
    ['notes://s{?q,limit}', 'notes://s', {}],
    ['notes://s{?q}{&page}', 'notes://s?q=a%2Fb&page=2', { q: 'a/b', page: '2' }],
    ['notes://d{#section}', 'notes://d#intro', { section: 'intro' }],
    ['notes://d{#section}', 'notes://d', {}],
  ];
  for (const [template, uri, expected] of matches) {
    it(`${template} ${expected ? 'matches' : 'does not match'} ${uri}`, () => {
      assert.deepEqual(parseUriTemplate(template).match(uri), expected);
    });
  }

  it('names its variables in order', () => {
    assert.deepEqual(parseUriTemplate('notes://{a}/{+b}{?c,d}').variableNames, ['a', 'b', 'c', 'd']);
  });

  it('throws a URIError for an escape that is not UTF-8', () => {
    assert.throws(() => parseUriTemplate('notes://n/{id}').match('notes://n/%FF'), URIError);
  });

  const refused: Array<[string, RegExp]> = [
    ['notes://n/{id', /not closed/],
    ['notes://n/id}', /closes no expression/],
    ['notes://n/{}', /names no variable/],
    ['notes://n/{path*}', /level 4/],
    ['notes://n/{id:3}', /level 4/],
    ['notes://n/{a-b}', /not a variable name/],
    ['notes://{a}/{a}', /appears twice/],
    ['notes://{a}{b}', /nothing between them/],
    ['no scheme/{id}', /not an absolute URI/],
    ['notes://a b/{id}', /not an absolute URI/],
  ];
  for (const [template, message] of refused) {
    it(`refuses ${template}`, () => assert.throws(() => parseUriTemplate(template), message));
  }
});

describe('isValidUri', () => {
  const cases: Array<[unknown, boolean]> = [
    ['notes://readme', true],
    ['urn:isbn:0451450523', true],
    ['file:///tmp/a%20b.txt', true],
    ['https://example.com/a?b=c#d', true],
    ['notes:', true],
    ['readme', false],
    ['/absolute/path', false],
    ['not a uri', false],
    ['notes://a b', false],
    ['notes://bad%zz', false],
    ['notes://a#b#c', false],
    ['notes://{id}', false],
    ['1notes://x', false],
    [`notes://${'a'.repeat(MAX_URI_CHARS)}`, false],
    [42, false],
  ];
  for (const [uri, valid] of cases) {
    it(`${JSON.stringify(uri).slice(0, 40)} is ${valid ? '' : 'not '}a URI`, () => assert.equal(isValidUri(uri), valid));
  }
});
