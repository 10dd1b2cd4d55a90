import { GatewayError } from '../contract/errors.js';
import { describeSchemaErrors, pointerToKeyPath, type JsonSchema } from '../lib/schema.js';
import type { Ajv2020 } from 'ajv/dist/2020.js';

/**
 * A plugin's config section checked against its `configSchema`, as its setup gets it: a copy
 * with the defaults filled in and scalars coerced, or what is wrong, one `plugins.<name>.config…:
 * problem` per part. Unknown top-level keys are refused even when the schema does not say so;
 * without a schema only an empty section passes. Throws PLUGIN_LOAD_FAILED for a schema that
 * does not compile. The host and @mcp-gateway/core/testing's pluginConfig both check with it.
 */
export function checkPluginConfig(
  name: string,
  schema: JsonSchema | undefined,
  config: Readonly<Record<string, unknown>>,
  compiler: Ajv2020,
): { readonly data: Record<string, unknown> } | { readonly problem: string } {
  const data = structuredClone(config) as Record<string, unknown>;
  if (!schema) return Object.keys(data).length === 0 ? { data } : { problem: `plugins.${name}.config: plugin "${name}" takes no configuration.` };
  let validate;
  try {
    validate = compiler.compile(closeTopLevel(schema));
  } catch (err) {
    throw new GatewayError('PLUGIN_LOAD_FAILED', `Plugin "${name}": its configSchema does not compile: ${(err as Error).message}`);
  }
  if (validate(data)) return { data };
  const lines = describeSchemaErrors(validate.errors).map((p) => `${pointerToKeyPath(p.path, `plugins.${name}.config`)}: ${p.message}`);
  return { problem: lines.join('; ') };
}

/** Unknown keys in a plugin's config are refused even when its schema does not say so. */
function closeTopLevel(schema: JsonSchema): JsonSchema {
  const open = !('additionalProperties' in schema) && !('unevaluatedProperties' in schema) && 'properties' in schema;
  return open ? { ...schema, additionalProperties: false } : schema;
}
