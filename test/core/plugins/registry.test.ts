import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { BUILTIN_REGISTRY_DIR, loadRegistry } from '../../../core/plugins/registry.js';
import { FIXTURE_REGISTRY, tempDir } from '../../helpers.js';

function registryWith(files: Record<string, string>): string {
  const dir = join(tempDir(), 'registry');
  mkdirSync(dir);
  writeFileSync(join(dir, '..', 'plugin.mjs'), 'export default {};');
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

const valid = 'name: demo\nmodule: ../plugin.mjs\n';

describe('registry', () => {
  it('reads entries with defaults and resolves module paths against the YAML file', () => {
    const dir = registryWith({ 'demo.yaml': valid, 'notes.txt': 'ignored' });
    const entry = loadRegistry([dir]).get('demo')!;
    assert.equal(entry.optional, false);
    assert.equal(entry.module, pathToFileURL(join(dir, '..', 'plugin.mjs')).href);
    assert.equal(entry.file, join(dir, 'demo.yaml'));
  });

  it('keeps a package name as it is', () => {
    const dir = registryWith({ 'pkg.yml': 'name: pkg\nmodule: mcp-gateway-plugin-pkg\n' });
    assert.equal(loadRegistry([dir]).get('pkg')!.module, 'mcp-gateway-plugin-pkg');
  });

  it('reads the built-in registry and the fixture plugin folder together', () => {
    const entries = loadRegistry([BUILTIN_REGISTRY_DIR, FIXTURE_REGISTRY]);
    assert.equal(entries.get('files')?.module, '@mcp-gateway/plugin-files');
    assert.match(entries.get('echo')!.module, /^file:.*external-plugin\/index\.js$/);
  });

  const refused: Array<[string, Record<string, string>, RegExp]> = [
    ['a missing field', { 'a.yaml': 'name: a\n' }, /a\.yaml: \(root\): missing required key "module"/],
    ['an unknown key', { 'a.yaml': `${valid}requirez: []\n` }, /a\.yaml: \(root\): unknown key "requirez"\. Valid keys: name, module, optional/],
    // One source of metadata: the plugin object. Said here too, the two would drift apart.
    ['a version', { 'a.yaml': `${valid}version: 1.0.0\n` }, /a\.yaml: "version" is not read from the registry: a plugin's version, description, requires, uses, services and channels are declared once, in its definePlugin object\. Move it there\./],
    ['a description and requires', { 'a.yaml': `${valid}description: A demo.\nrequires: []\n` }, /a\.yaml: "description", "requires" are not read from the registry: .* Move them there\./],
    ['services', { 'a.yaml': `${valid}services: [{ name: api }]\n` }, /a\.yaml: "services" is not read from the registry: .* Move it there\./],
    ['a bad name', { 'a.yaml': valid.replace('demo', 'Demo_Plugin') }, /a\.yaml: name: must match pattern/],
    ['a module that does not exist', { 'a.yaml': valid.replace('../plugin.mjs', './missing.js') }, /a\.yaml: module \.\/missing\.js was not found/],
    ['a YAML syntax error', { 'a.yaml': 'name: [oops\n' }, /a\.yaml is not valid YAML/],
    ['a duplicate name', { 'a.yaml': valid, 'b.yaml': valid }, /b\.yaml: plugin "demo" is already registered by .*a\.yaml/],
    ['the reserved name core', { 'a.yaml': valid.replace('demo', 'core') }, /a\.yaml: the plugin name "core" is reserved/],
    ['the reserved name gateway', { 'a.yaml': valid.replace('demo', 'gateway') }, /a\.yaml: the plugin name "gateway" is reserved/],
  ];
  for (const [label, files, message] of refused) {
    it(`refuses ${label}, naming the file`, () => {
      const dir = registryWith(files);
      assert.throws(() => loadRegistry([dir]), (err: any) => {
        assert.equal(err.code, 'REGISTRY_INVALID');
        assert.match(err.message, message);
        return true;
      });
    });
  }

  it('refuses a registry folder that does not exist', () => {
    assert.throws(() => loadRegistry(['/nonexistent/registry']), /Registry folder \/nonexistent\/registry does not exist/);
  });
});
