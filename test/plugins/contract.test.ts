import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { BUILTIN_REGISTRY_DIR, loadRegistry } from '../../core/plugins/registry.js';
import type { JsonSchema } from '../../core/lib/schema.js';
import { ROOT, startGateway } from '../helpers.js';

/**
 * Contracts every shipped plugin keeps. Boot itself enforces names, descriptions,
 * annotations and strict-mode schemas (a plugin that breaks them does not load); this adds
 * the conventions that boot does not check.
 */
describe('every shipped plugin', async () => {
  const registry = loadRegistry([BUILTIN_REGISTRY_DIR]);
  const plugins = Object.fromEntries([...registry.keys()].map((name) => [name, {}]));
  const gateway = await startGateway({ plugins: { ...plugins, echo: { enabled: false } } });

  it('loads, with at least one plugin in the registry', () => {
    assert.ok(registry.size > 0);
    assert.deepEqual(gateway.plugins.loaded.map((p) => p.name).sort(), [...registry.keys()].sort());
  });

  for (const entry of registry.values()) {
    describe(entry.name, () => {
      const loaded = () => gateway.plugins.loaded.find((p) => p.name === entry.name)!;
      const tools = () => gateway.catalog.list().filter((t) => t.plugin === entry.name);
      // The plugin's package folder (module: '@mcp-gateway/plugin-<name>'), where its README is.
      const folder = join(ROOT, 'plugins', entry.name);

      it('declares its version and description in its plugin object (their one source)', () => {
        assert.match(loaded().version, /^\d+\.\d+\.\d+/);
        assert.ok(loaded().description.length > 20);
      });

      it('closes every tool input schema (additionalProperties: false)', () => {
        for (const tool of tools()) assert.equal(tool.definition.inputSchema.additionalProperties, false, tool.listing.name);
      });

      it('closes every tool output schema, so that a result that drifts from it is caught', () => {
        for (const tool of tools()) {
          const schema = tool.definition.outputSchema;
          assert.ok(schema, `${tool.listing.name} has no outputSchema`);
          const shapes = (schema.oneOf as JsonSchema[] | undefined) ?? [schema];
          for (const shape of shapes) assert.equal(shape.additionalProperties, false, tool.listing.name);
        }
      });

      it('states destructiveHint on every tool that is not read-only', () => {
        for (const tool of tools()) {
          // The definition, not the listing: the lean listing leaves out hints equal to the defaults.
          const { readOnlyHint, destructiveHint } = tool.definition.annotations;
          if (readOnlyHint === false) assert.equal(typeof destructiveHint, 'boolean', tool.listing.name);
        }
      });

      it('documents every tool and every error code of its own in its README', () => {
        const readme = join(folder, 'README.md');
        assert.ok(existsSync(readme), `${readme} is missing`);
        const text = readFileSync(readme, 'utf8');
        for (const tool of tools()) assert.ok(text.includes(`\`${tool.listing.name}\``), `${tool.listing.name} is not in ${readme}`);
        for (const [code, spec] of gateway.errors.entries()) {
          if (spec.owner === entry.name) assert.ok(text.includes(`\`${code}\``), `${code} is not in ${readme}`);
        }
      });
    });
  }
});
