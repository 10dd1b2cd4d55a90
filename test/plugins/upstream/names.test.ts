import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TOOL_NAME } from '../../../core/catalog/tool-catalog.js';
import { gatewayName, prefixOf, toolFilter } from '../../../plugins/upstream/names.js';
import { templateVariables } from '../../../plugins/upstream/resource-entries.js';

describe('upstream names', () => {
  it('prefix, lower case, and every other character as an underscore', () => {
    assert.equal(gatewayName('fs_', 'read_text_file'), 'fs_read_text_file');
    assert.equal(gatewayName('everything_', 'get-Tiny.Image/v2'), 'everything_get_tiny_image_v2');
    assert.equal(gatewayName('', '2fa-code'), 't_2fa_code', 'a name must start with a letter');
  });

  it('the default prefix is the server name with dashes as underscores', () => {
    assert.equal(prefixOf({ name: 'my-server' }), 'my_server_');
    assert.equal(prefixOf({ name: 'x', prefix: '' }), '');
  });

  it('a long name is cut and ends in a hash of the full name, so two long names stay apart', () => {
    const a = gatewayName('server_', `${'a'.repeat(70)}_one`);
    const b = gatewayName('server_', `${'a'.repeat(70)}_two`);
    assert.equal(a.length, 64);
    assert.notEqual(a, b);
    assert.ok(TOOL_NAME.test(a) && TOOL_NAME.test(b));
  });

  it('include, then exclude, by glob', () => {
    const offers = toolFilter({ include: ['read_*', 'list_*'], exclude: ['*_media_*'] });
    assert.deepEqual(['read_text_file', 'read_media_file', 'list_directory', 'write_file'].filter(offers), ['read_text_file', 'list_directory']);
    assert.equal(toolFilter({ include: [], exclude: [] })('anything'), true);
  });

  it("a template's variable names, whatever its operators and modifiers", () => {
    assert.deepEqual(templateVariables('demo://resource/{id}'), ['id']);
    assert.deepEqual(templateVariables('file:///{+path}{?q,limit:3}{&tags*}'), ['path', 'q', 'limit', 'tags']);
  });
});
