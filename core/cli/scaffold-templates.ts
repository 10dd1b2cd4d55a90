// The files `mcp-gateway plugin new` writes: a third-party plugin package that builds and
// passes its own test against the gateway it was made from. One function per file, each
// taking the names derived once in scaffold.ts.

/** Everything the templates need, derived from the plugin's name. */
export interface ScaffoldNames {
  /** The plugin's name (`^[a-z][a-z0-9-]*$`), as in the registry and the config. */
  readonly plugin: string;
  /** The tool-name prefix: the name with `-` as `_` (tool names are snake_case). */
  readonly prefix: string;
  /** The error-code prefix: the prefix in upper case. */
  readonly codePrefix: string;
  /** Where the new package's devDependency finds @mcp-gateway/core: a `file:` path, or a version range. */
  readonly coreSource: string;
  /** Core's version: the peer dependency's lower bound. */
  readonly gatewayVersion: string;
  /** The versions the gateway itself builds with. */
  readonly typescriptVersion: string;
  readonly nodeTypesVersion: string;
}

export function packageJson(n: ScaffoldNames): string {
  const pkg = {
    name: `mcp-gateway-plugin-${n.plugin}`,
    version: '0.1.0',
    description: `The ${n.plugin} plugin for mcp-gateway.`,
    type: 'module',
    exports: { '.': { types: './dist/index.d.ts', default: './dist/index.js' } },
    files: ['dist', 'registry'],
    engines: { node: '>=20.12' },
    scripts: { build: 'tsc -p tsconfig.json', test: 'node --test dist/index.test.js' },
    // A peer: the gateway loads the plugin, and the plugin must use that gateway's copy of core.
    peerDependencies: { '@mcp-gateway/core': `^${n.gatewayVersion}` },
    devDependencies: {
      '@mcp-gateway/core': n.coreSource,
      '@types/node': n.nodeTypesVersion,
      typescript: n.typescriptVersion,
    },
  };
  return `${JSON.stringify(pkg, null, 2)}\n`;
}

export function tsconfigJson(): string {
  const config = {
    compilerOptions: {
      target: 'ES2022',
      lib: ['ES2023'],
      module: 'NodeNext',
      moduleResolution: 'NodeNext',
      strict: true,
      verbatimModuleSyntax: true,
      skipLibCheck: true,
      types: ['node'],
      declaration: true,
      outDir: 'dist',
      rootDir: '.',
    },
    include: ['*.ts'],
  };
  return `${JSON.stringify(config, null, 2)}\n`;
}

export function indexTs(n: ScaffoldNames): string {
  return `// The ${n.plugin} plugin. It imports only the public plugin API of mcp-gateway.
import { definePlugin, type ToolDefinition } from '@mcp-gateway/core';

// \`as const\` keeps the schemas literal types: ctx.config and each handler's arguments are
// typed from them (docs/plugins/typed-contract.md).
const configSchema = {
  type: 'object',
  properties: {
    greeting: { type: 'string', minLength: 1, default: 'Hello', description: 'How ${n.prefix}_greet starts its answer.' },
  },
} as const;

const greet = {
  name: '${n.prefix}_greet',
  title: 'Greet someone',
  description: 'Greets someone by name, up to five times. Fails with ${n.codePrefix}_NAME_REFUSED for the name "nobody".',
  inputSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['name'],
    properties: {
      name: { type: 'string', minLength: 1, maxLength: 100, description: 'Who to greet.' },
      times: { type: 'integer', minimum: 1, maximum: 5, default: 1, description: 'How many times.' },
    },
    examples: [{ name: 'Ada' }, { name: 'Alan', times: 2 }],
  },
  outputSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['text'],
    properties: { text: { type: 'string' } },
  },
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
} as const satisfies ToolDefinition;

export default definePlugin({
  name: '${n.plugin}',
  version: '0.1.0',
  description: 'Greets people by name (a new plugin: replace with what yours gives an agent).',
  configSchema,
  errors: {
    ${n.codePrefix}_NAME_REFUSED: {
      status: 400,
      mcp: 'result',
      description: 'The name is not one ${n.prefix}_greet greets; give a real name.',
    },
  },
  setup(ctx) {
    ctx.tool(greet, (args) => {
      if (args.name === 'nobody') {
        throw ctx.error('${n.codePrefix}_NAME_REFUSED', 'Nobody is not a name; give a real one.', { name: args.name });
      }
      const line = \`\${ctx.config.greeting}, \${args.name}!\`;
      return { text: Array.from({ length: args.times }, () => line).join(' ') };
    });
    // A resource template: clients read ${n.plugin}://card/<name> (resources/read, GET /resources?uri=).
    ctx.resource(
      {
        uriTemplate: '${n.plugin}://card/{name}',
        name: 'card',
        title: 'Greeting card',
        description: 'A greeting card for one name, as Markdown.',
        mimeType: 'text/markdown',
        variables: { type: 'object', properties: { name: { type: 'string', minLength: 1, maxLength: 100 } } },
      },
      (_uri, variables) => \`# \${ctx.config.greeting}, \${String(variables.name)}!\\n\`,
    );
    // More contribution points (prompts, routes, notifications, CLI commands) go here: docs/writing-a-plugin.md.
  },
});
`;
}

export function indexTestTs(n: ScaffoldNames): string {
  return `// Tests the plugin the way clients see it: a gateway in process, a real MCP client, REST.
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { after, describe, it } from 'node:test';
import { startTestGateway } from '@mcp-gateway/core/testing';

// The compiled test runs from dist/; the registry entry sits beside it in the package.
const registry = fileURLToPath(new URL('../registry/', import.meta.url));

describe('the ${n.plugin} plugin', async () => {
  const gateway = await startTestGateway({ registries: [registry], plugins: { '${n.plugin}': { config: { greeting: 'Hi' } } } });
  after(() => gateway.close());

  it('lists its tool with its schemas', async () => {
    const { tools } = await gateway.client.listTools();
    const tool = tools.find((t) => t.name === '${n.prefix}_greet');
    assert.ok(tool, 'the tool is listed');
    assert.deepEqual(tool.inputSchema.required, ['name']);
    assert.ok(tool.outputSchema);
  });

  it('greets over MCP, with structured content', async () => {
    const result = await gateway.client.callTool({ name: '${n.prefix}_greet', arguments: { name: 'Ada', times: 2 } });
    assert.deepEqual(result.structuredContent, { text: 'Hi, Ada! Hi, Ada!' });
  });

  it('refuses "nobody" with its own error code', async () => {
    const result = await gateway.client.callTool({ name: '${n.prefix}_greet', arguments: { name: 'nobody' } });
    assert.equal(result.isError, true);
    const [block] = result.content as Array<{ type: string; text: string }>;
    assert.equal(JSON.parse(block!.text).code, '${n.codePrefix}_NAME_REFUSED');
  });

  it('refuses arguments its schema does not allow', async () => {
    const result = await gateway.client.callTool({ name: '${n.prefix}_greet', arguments: { name: 'Ada', times: 9 } });
    assert.equal(result.isError, true);
    const [block] = result.content as Array<{ type: string; text: string }>;
    assert.equal(JSON.parse(block!.text).code, 'INVALID_ARGUMENTS');
  });

  it('serves its resource template', async () => {
    const { resourceTemplates } = await gateway.client.listResourceTemplates();
    assert.deepEqual(resourceTemplates.map((t) => t.uriTemplate), ['${n.plugin}://card/{name}']);
    const { contents } = await gateway.client.readResource({ uri: '${n.plugin}://card/Ada' });
    assert.deepEqual(contents, [{ uri: '${n.plugin}://card/Ada', mimeType: 'text/markdown', text: '# Hi, Ada!\\n' }]);
  });

  it('answers over REST', async () => {
    const answer = await gateway.rest('POST', '/tools/${n.prefix}_greet', { name: 'Grace' });
    assert.equal(answer.status, 200);
    assert.deepEqual(answer.body, { success: true, data: { text: 'Hi, Grace!' } });
  });
});
`;
}

export function registryYaml(n: ScaffoldNames): string {
  return `# The registry entry: list this folder under registries: in gateway.config.yaml.
# What the plugin is (version, description, requires, services, channels) is the plugin
# object's (index.ts), not repeated here.
name: ${n.plugin}
module: ../dist/index.js   # relative to this file: the compiled plugin
optional: false
`;
}

export function gitignore(): string {
  // .gateway/: the state of a gateway whose config sits in the package, as the guide's demo.yaml does.
  return 'node_modules/\ndist/\n.gateway/\n';
}

export function readme(n: ScaffoldNames): string {
  return `# mcp-gateway-plugin-${n.plugin}

The \`${n.plugin}\` plugin for mcp-gateway: one tool, \`${n.prefix}_greet\`,
to replace with your own.

## Build and test

\`\`\`sh
npm install
npm run build
npm test
\`\`\`

\`npm install\` installs \`@mcp-gateway/core\`, the plugin API and the test harness, as a
devDependency: \`"@mcp-gateway/core": "${n.coreSource}"\`.${n.coreSource.startsWith('file:') ? ` That
path links the core of the gateway checkout this package was made from, so a rebuilt core is
seen at once; build the gateway first. To test against core as an install from the registry
gives it (its own files and dependencies, nothing else of the checkout), pack it and install
the tarball instead:

\`\`\`sh
npm pack --workspace core --pack-destination "$PWD" --prefix path/to/the/gateway
npm install --save-dev ./mcp-gateway-core-${n.gatewayVersion}.tgz
\`\`\`
` : ''}
\`@mcp-gateway/core\` is also a peer dependency: the gateway that loads the plugin provides it.

The test (\`index.test.ts\`) uses \`@mcp-gateway/core/testing\`: a gateway in process with this
plugin, a real MCP client on it, and REST requests, so it needs no gateway internals.

## Use it in a gateway

Build it, then in the gateway's \`gateway.config.yaml\`:

\`\`\`yaml
registries:
  - path/to/this/folder/registry
plugins:
  ${n.plugin}:
    config:
      greeting: Hello
\`\`\`

\`mcp-gateway plugins\` then lists it as enabled and \`mcp-gateway tools\` its tool.

## Layout

- \`index.ts\` — the plugin: \`definePlugin\`, its config schema, its tool and error code.
- \`index.test.ts\` — its test.
- \`registry/${n.plugin}.yaml\` — its registry entry: where the compiled module is.
`;
}
