import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { coreErrors, ErrorTable, GatewayError } from '../../../core/contract/errors.js';
import { ROOT } from '../../helpers.js';

const docs = readFileSync(join(ROOT, 'docs', 'errors.md'), 'utf8');

/** Rows of the docs table: | `CODE` | status | MCP form | ... */
function documentedCodes(): Map<string, { status: number; form: string }> {
  const rows = new Map<string, { status: number; form: string }>();
  for (const match of docs.matchAll(/^\| `([A-Z_]+)` \| (\d{3}) \| ([^|]+) \|/gm)) {
    rows.set(match[1]!, { status: Number(match[2]), form: match[3]!.trim() });
  }
  return rows;
}

describe('error table', () => {
  it('docs/errors.md lists every core code with its status and MCP form, and no other', () => {
    const documented = documentedCodes();
    for (const [code, spec] of Object.entries(coreErrors)) {
      const row = documented.get(code);
      assert.ok(row, `${code} is missing from docs/errors.md`);
      assert.equal(row.status, spec.status, `${code}: status differs`);
      const form = spec.mcp === 'protocol' ? `JSON-RPC ${spec.jsonRpcCode}` : 'isError result';
      assert.equal(row.form, form, `${code}: MCP form differs`);
    }
    for (const code of documented.keys()) assert.ok(code in coreErrors, `docs/errors.md lists unknown code ${code}`);
  });

  it('every protocol error has a JSON-RPC code and every code a description', () => {
    for (const [code, spec] of Object.entries(coreErrors)) {
      assert.ok(spec.description.length > 20, code);
      if (spec.mcp === 'protocol') assert.equal(typeof (spec as { jsonRpcCode?: number }).jsonRpcCode, 'number', code);
    }
  });

  it('lets a plugin add codes but not take one that core or another plugin owns', () => {
    const table = new ErrorTable();
    table.add('files', { FILE_NOT_FOUND: { status: 404, mcp: 'result', description: 'No such file.' } });
    assert.equal(table.get('FILE_NOT_FOUND')?.owner, 'files');
    assert.throws(() => table.add('other', { FILE_NOT_FOUND: { status: 404, mcp: 'result', description: 'x' } }), /plugin "files" already owns/);
    assert.throws(() => table.add('other', { INTERNAL_ERROR: { status: 500, mcp: 'result', description: 'x' } }), /core already owns/);
    assert.throws(() => table.add('other', { 'bad-code': { status: 500, mcp: 'result', description: 'x' } }), /UPPER_SNAKE_CASE/);
  });

  const badSpecs: Array<[string, unknown, RegExp]> = [
    ['a status given as a string', { status: '409', mcp: 'result', description: 'x' }, /status "409": it must be an HTTP error status/],
    ['a success status', { status: 200, mcp: 'result', description: 'x' }, /status 200: it must be an HTTP error status/],
    ['a status out of range', { status: 999, mcp: 'result', description: 'x' }, /status 999/],
    ['an unknown MCP form', { status: 409, mcp: 'error', description: 'x' }, /mcp "error": it must be "result"/],
    ['a protocol error without its JSON-RPC code', { status: 409, mcp: 'protocol', description: 'x' }, /no integer jsonRpcCode/],
    ['no description', { status: 409, mcp: 'result' }, /no description/],
  ];
  for (const [label, spec, message] of badSpecs) {
    it(`refuses a plugin error spec with ${label}`, () => {
      const table = new ErrorTable();
      assert.throws(() => table.add('other', { MY_CODE: spec as never }), (err: any) => err.code === 'PLUGIN_LOAD_FAILED' && /Plugin "other" declares error code "MY_CODE" with /.test(err.message) && message.test(err.message));
    });
  }

  it('accepts a well-formed plugin error spec', () => {
    const table = new ErrorTable();
    table.add('other', { MY_CODE: { status: 409, mcp: 'result', description: 'A conflict.' } });
    assert.equal(table.get('MY_CODE')?.owner, 'other');
  });

  it('GatewayError carries code, message, details and cause', () => {
    const cause = new Error('low level');
    const err = new GatewayError('TOOL_TIMEOUT', 'too slow', { details: { ms: 5 }, cause });
    assert.equal(err.code, 'TOOL_TIMEOUT');
    assert.deepEqual(err.details, { ms: 5 });
    assert.equal(err.cause, cause);
  });
});
