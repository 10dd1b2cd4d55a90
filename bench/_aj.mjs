import { createSchemaCompiler } from '../dist/core/catalog/schema.js';
const schema = { type: 'object', properties: { a: { type: 'string', format: 'uri' }, b: { type: 'integer', minimum: 1 } }, additionalProperties: false };
for (const vs of [true, false, true, false]) {
  const t = performance.now();
  const ajv = createSchemaCompiler({});
  const t1 = performance.now();
  if (!vs) ajv.opts.validateSchema = false;
  ajv.compile(schema);
  const t2 = performance.now();
  ajv.compile({ ...schema, title: 'x' });
  const t3 = performance.now();
  console.log({ vs, create: Math.round(t1 - t), first: Math.round(t2 - t1), second: Math.round(t3 - t2) });
}
