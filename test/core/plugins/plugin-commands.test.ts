// ctx.command: definitions checked at setup, commands joining the gateway only when setup
// succeeds, and runs mapped to exit statuses (through @mcp-gateway/core/testing's `command`). The
// command line itself is test/core/cli/cli-commands.test.ts.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { stringify } from 'yaml';
import { startTestGateway, type TestGateway } from '../../../core/testing.js';
import { tempDir } from '../../helpers.js';

/** Boots plain-JS plugins written in a temp folder: name → the body of `setup(ctx)`. */
async function bootPlugins(plugins: Record<string, string>, optional: string[] = []): Promise<TestGateway> {
  const dir = tempDir();
  const registry = join(dir, 'registry');
  mkdirSync(registry);
  for (const [name, setup] of Object.entries(plugins)) {
    writeFileSync(join(dir, `${name}.mjs`), `export default { name: '${name}', version: '1.0.0', description: 'test', async setup(ctx) { ${setup} } };\n`);
    writeFileSync(join(registry, `${name}.yaml`), stringify({ name, module: `../${name}.mjs` }));
  }
  const settings = Object.fromEntries(Object.keys(plugins).map((n) => [n, { optional: optional.includes(n) }]));
  return startTestGateway({ registries: [registry], plugins: settings });
}

async function bootRejects(setup: string, code: string, message: RegExp, name = 'cmds'): Promise<void> {
  await assert.rejects(bootPlugins({ [name]: setup }), (err: any) => {
    assert.equal(err.code, code, err.message);
    assert.match(err.message, message);
    return true;
  });
}

describe('ctx.command', () => {
  const badDefinitions: Array<[string, string, RegExp]> = [
    ['a name with upper case', `{ name: 'Export', description: 'd' }`, /the name must match/],
    ['a name with an underscore', `{ name: 'do_it', description: 'd' }`, /the name must match/],
    ['a name starting with a digit', `{ name: '1st', description: 'd' }`, /the name must match/],
    ['a name of 33 characters', `{ name: '${'a'.repeat(33)}', description: 'd' }`, /the name must match/],
    ['no name', `{ description: 'd' }`, /the name must match/],
    ['no description', `{ name: 'export' }`, /a description is required/],
    ['a blank description', `{ name: 'export', description: '  ' }`, /a description is required/],
    ['a usage that is not a string', `{ name: 'export', description: 'd', usage: ['FILE'] }`, /usage, when given, must be a non-empty string/],
    ['a definition that is not an object', `'export'`, /the definition must be an object/],
  ];
  for (const [label, definition, message] of badDefinitions) {
    it(`refuses ${label} with COMMAND_DEFINITION_INVALID, naming the plugin`, async () => {
      await bootRejects(`ctx.command(${definition}, () => 0);`, 'COMMAND_DEFINITION_INVALID', new RegExp(`^Plugin "cmds", command "[^"]*": .*${message.source}`));
    });
  }

  it('refuses a runner that is not a function', async () => {
    await bootRejects(`ctx.command({ name: 'export', description: 'd' }, 'run');`, 'COMMAND_DEFINITION_INVALID', /the runner must be a function/);
  });

  it('refuses a name the plugin already recorded', async () => {
    await bootRejects(
      `ctx.command({ name: 'export', description: 'one' }, () => 0); ctx.command({ name: 'export', description: 'two' }, () => 0);`,
      'COMMAND_DEFINITION_INVALID',
      /Plugin "cmds" records command "export" twice/,
    );
  });

  it('refuses commands from a plugin named like a built-in command, which could never run them', async () => {
    await bootRejects(`ctx.command({ name: 'export', description: 'd' }, () => 0);`, 'COMMAND_DEFINITION_INVALID', /"mcp-gateway tools" is a built-in command/, 'tools');
  });

  it('lets two plugins use the same command name, and keeps each plugin\'s order', async () => {
    const gateway = await bootPlugins({
      alpha: `ctx.command({ name: 'export', description: 'a' }, (args, io) => { io.stdout.write('alpha'); }); ctx.command({ name: 'import', description: 'b' }, () => 0);`,
      beta: `ctx.command({ name: 'export', description: 'c', usage: '> FILE' }, (args, io) => { io.stdout.write('beta'); });`,
    });
    try {
      assert.equal((await gateway.command('alpha', 'export')).stdout, 'alpha');
      assert.equal((await gateway.command('beta', 'export')).stdout, 'beta');
      await assert.rejects(gateway.command('beta', 'import'), /Plugin "beta" has no command "import"; its commands: export\./);
    } finally {
      await gateway.close();
    }
  });

  it('throws PLUGIN_SETUP_OVER once setup is over', async () => {
    const gateway = await bootPlugins({
      late: `ctx.command({ name: 'late', description: 'records another command, too late' }, () => { ctx.command({ name: 'later', description: 'x' }, () => 0); });`,
    });
    try {
      const run = await gateway.command('late', 'late');
      assert.equal(run.code, 1);
      assert.match(run.stderr, /^mcp-gateway: PLUGIN_SETUP_OVER: Plugin "late" called ctx\.command\("later"\) after its setup was over/);
      await assert.rejects(gateway.command('late', 'later'), /has no command "later"/);
    } finally {
      await gateway.close();
    }
  });

  it('adds no command of a plugin whose setup fails after recording one', async () => {
    const gateway = await bootPlugins(
      {
        fine: `ctx.command({ name: 'ok', description: 'd' }, () => 0);`,
        broken: `ctx.command({ name: 'export', description: 'd' }, () => 0); throw new Error('setup broke');`,
      },
      ['broken'],
    );
    try {
      await assert.rejects(gateway.command('broken', 'export'), /Plugin "broken" has no command "export"; its commands: \(none\)/);
      assert.equal((await gateway.command('fine', 'ok')).code, 0);
    } finally {
      await gateway.close();
    }
  });
});

describe('running a command', async () => {
  const gateway = await bootPlugins({
    run: `
      ctx.command({ name: 'upper', description: 'stdin upper-cased to stdout' }, async (args, io) => {
        let text = '';
        for await (const chunk of io.stdin) text += chunk;
        io.stdout.write(text.toUpperCase());
      });
      ctx.command({ name: 'args', description: 'its arguments as JSON' }, (args, io) => {
        io.stdout.write(JSON.stringify({ args, frozen: Object.isFrozen(args) }));
      });
      ctx.command({ name: 'status', description: 'returns its argument as the status' }, (args) => JSON.parse(args[0]));
      ctx.command({ name: 'refuse', description: 'a GatewayError' }, () => { throw ctx.error('INVALID_PATH', 'The path is no good.', { path: 'x' }); });
      ctx.command({ name: 'crash', description: 'any other error' }, async (args, io) => { io.stderr.write('working\\n'); throw new Error('disk on fire'); });
      ctx.command({ name: 'wait', description: 'until its signal' }, (args, io) => new Promise((resolve) => io.signal.addEventListener('abort', () => resolve(7))));
    `,
  });
  after(() => gateway.close());

  it('reads stdin and writes stdout', async () => {
    assert.deepEqual(await gateway.command('run', 'upper', [], { stdin: 'memories\nand more\n' }), { code: 0, stdout: 'MEMORIES\nAND MORE\n', stderr: '' });
  });

  it('gets its arguments verbatim, as a frozen copy', async () => {
    const args = ['--org', 'x', '--config', 'y', '--', '-v', ''];
    const run = await gateway.command('run', 'args', args);
    assert.deepEqual(JSON.parse(run.stdout), { args, frozen: true });
    assert.equal(Object.isFrozen(args), false, 'a copy is frozen, not the caller\'s array');
  });

  const statuses: Array<[string, number, RegExp | '']> = [
    ['null', 1, /returned null, which is not an exit status/],
    ['3', 3, ''],
    ['0', 0, ''],
    ['255', 255, ''],
    ['256', 1, /returned 256, which is not an exit status \(an integer from 0 to 255, or nothing for 0\)/],
    ['-1', 1, /returned -1/],
    ['1.5', 1, /returned 1\.5/],
    ['"2"', 1, /returned "2"/],
  ];
  for (const [returned, code, stderr] of statuses) {
    it(`exits ${code} when the command returns ${returned}`, async () => {
      const run = await gateway.command('run', 'status', [returned]);
      assert.equal(run.code, code);
      if (stderr === '') assert.equal(run.stderr, '');
      else assert.match(run.stderr, new RegExp(`^mcp-gateway: run status: the command ${stderr.source}`));
    });
  }

  it('exits 0 when the command returns nothing', async () => {
    assert.equal((await gateway.command('run', 'upper')).code, 0);
  });

  it('exits 1 on a GatewayError, printing its code and message', async () => {
    assert.deepEqual(await gateway.command('run', 'refuse'), { code: 1, stdout: '', stderr: 'mcp-gateway: INVALID_PATH: The path is no good.\n' });
  });

  it('exits 1 on any other error, printing its message without the stack', async () => {
    assert.deepEqual(await gateway.command('run', 'crash'), { code: 1, stdout: '', stderr: 'working\nmcp-gateway: run crash: disk on fire\n' });
  });

  it('aborts the command\'s signal with the caller\'s', async () => {
    const stop = new AbortController();
    const running = gateway.command('run', 'wait', [], { signal: stop.signal });
    stop.abort();
    assert.equal((await running).code, 7);
  });
});
