// `mcp-gateway <plugin> <command> [args...]`: the built binary, with a plugin written in a temp
// folder the way a third party ships one. Needs `npm run build` first (npm test does it).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parse, stringify } from 'yaml';
import { BIN, tempDir, testConfigObject, writeConfig } from '../../helpers.js';

// No imports: a plugin in a temp folder cannot resolve 'mcp-gateway', and needs nothing of it
// (ctx.error makes the GatewayError).
const TOOL_PLUGIN = `
export default {
  name: 'tool',
  version: '1.0.0',
  description: 'Commands for the CLI tests.',
  setup(ctx) {
    ctx.log.info('tool set up');
    ctx.command({ name: 'upper', description: 'Copies stdin to stdout, upper-cased.', usage: '< IN > OUT' }, async (args, io) => {
      let text = '';
      for await (const chunk of io.stdin) text += chunk;
      ctx.log.warn('upper read its input');
      io.stdout.write(text.toUpperCase());
    });
    ctx.command({ name: 'args', description: 'Prints its arguments as JSON.', usage: '[ANYTHING...]' }, (args, io) => {
      io.stdout.write(JSON.stringify(args) + '\\n');
    });
    ctx.command({ name: 'three', description: 'Exits with status 3.' }, () => 3);
    ctx.command({ name: 'refuse', description: 'Fails with a code.' }, () => {
      throw ctx.error('INVALID_PATH', 'The path "x" is no good.');
    });
    ctx.command({ name: 'crash', description: 'Fails with a plain error.' }, () => {
      throw new Error('disk on fire');
    });
    ctx.command({ name: 'where', description: 'Prints the workspace root.' }, (args, io) => {
      io.stdout.write(ctx.workspace.root + '\\n');
    });
    ctx.command({ name: 'wait', description: 'Waits for its signal, then fails.' }, (args, io) => new Promise((resolve, reject) => {
      const alive = setInterval(() => {}, 1000);
      io.signal.addEventListener('abort', () => { clearInterval(alive); reject(io.signal.reason); });
      io.stdout.write('waiting\\n');
    }));
    ctx.command({ name: 'flood', description: 'Writes until stdout is closed, then exits 5.' }, async (args, io) => {
      while (!io.signal.aborted) await new Promise((resolve) => io.stdout.write('line\\n'.repeat(1000), resolve));
      return 5;
    });
  },
};
`;

/** A config with the `tool` plugin enabled, `quiet` (no commands) enabled, and `idle` in the registry but off. */
function setup(overrides: Record<string, unknown> = {}): { dir: string; config: string } {
  const dir = tempDir();
  const registry = join(dir, 'registry');
  mkdirSync(registry);
  writeFileSync(join(dir, 'tool.mjs'), TOOL_PLUGIN);
  for (const name of ['quiet', 'idle']) {
    writeFileSync(join(dir, `${name}.mjs`), `export default { name: '${name}', version: '1.0.0', description: 'No commands.', setup() {} };\n`);
  }
  for (const name of ['tool', 'quiet', 'idle']) writeFileSync(join(registry, `${name}.yaml`), stringify({ name, module: `../${name}.mjs` }));
  const config = writeConfig(dir, testConfigObject(dir, { logLevel: 'info', registries: [registry], plugins: { tool: {}, quiet: {} }, ...overrides }));
  return { dir, config };
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The binary with `args`; `stdin` is written and closed; `onStdout` sees each chunk with the child. */
function cli(args: string[], options: { stdin?: string; cwd?: string; onStdout?: (text: string, child: ReturnType<typeof spawn>) => void } = {}): Promise<Run> {
  const { MCP_GATEWAY_CONFIG: _, ...env } = process.env;
  const child = spawn(process.execPath, [BIN, ...args], { cwd: options.cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    stdout += d;
    options.onStdout?.(stdout, child);
  });
  child.stdout.on('error', () => {});
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  child.stdin.end(options.stdin ?? '');
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  return new Promise((resolve) =>
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    }),
  );
}

describe('mcp-gateway PLUGIN COMMAND', () => {
  const { dir, config } = setup();

  it('runs the command on stdin and stdout: stdout is exactly its output, the logs stay off it', async () => {
    const run = await cli(['--config', config, 'tool', 'upper'], { stdin: 'memories\nand more\n' });
    assert.deepEqual(run, { code: 0, stdout: 'MEMORIES\nAND MORE\n', stderr: run.stderr });
    // The boot logs at warn: the plugin's info line is gone, its warning is on stderr.
    assert.doesNotMatch(run.stderr, /tool set up/);
    assert.match(run.stderr, /"level":40.*"msg":"upper read its input"/);
  });

  it('keeps stdout clean at log level trace too', async () => {
    const traced = setup({ logLevel: 'trace' });
    const run = await cli(['--config', traced.config, 'tool', 'upper'], { stdin: 'x' });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, 'X');
    assert.match(run.stderr, /"msg":"tool set up"/);
    assert.match(run.stderr, /"msg":"gateway ready"/);
  });

  it('passes every word after the command verbatim, options and -- included', async () => {
    const args = ['--org', 'x', '--config', 'elsewhere.yaml', '-h', '--', '--help', 'two words', ''];
    const run = await cli(['--config', config, 'tool', 'args', ...args]);
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(JSON.parse(run.stdout), args);
  });

  it('takes --config and --workspace before the plugin\'s name, from any folder', async () => {
    const workspace = tempDir();
    const run = await cli(['--workspace', workspace, '--config', config, 'tool', 'where'], { cwd: tempDir() });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout.trim(), workspace);
  });

  it('exits with the status the command returns', async () => {
    const run = await cli(['--config', config, 'tool', 'three']);
    assert.deepEqual(run, { code: 3, stdout: '', stderr: '' });
  });

  it('exits 1 on a GatewayError, with CODE: message on stderr', async () => {
    const run = await cli(['--config', config, 'tool', 'refuse']);
    assert.deepEqual(run, { code: 1, stdout: '', stderr: 'mcp-gateway: INVALID_PATH: The path "x" is no good.\n' });
  });

  it('exits 1 on any other error, with its message and no stack', async () => {
    const run = await cli(['--config', config, 'tool', 'crash']);
    assert.deepEqual(run, { code: 1, stdout: '', stderr: 'mcp-gateway: tool crash: disk on fire\n' });
  });

  it('aborts the command\'s signal on SIGINT and exits 130', async () => {
    const run = await cli(['--config', config, 'tool', 'wait'], { onStdout: (text, child) => text === 'waiting\n' && child.kill('SIGINT') });
    assert.equal(run.code, 130);
    assert.equal(run.stdout, 'waiting\n');
    assert.equal(run.stderr, 'mcp-gateway: CANCELLED: Interrupted by SIGINT.\n');
  });

  it('aborts the command\'s signal when stdout is closed under it (| head)', async () => {
    const run = await cli(['--config', config, 'tool', 'flood'], { onStdout: (_, child) => child.stdout?.destroy() });
    assert.equal(run.code, 5, run.stderr);
  });

  it('mcp-gateway tool, with --help or -h or alone, lists the plugin\'s commands with their usage', async () => {
    const variants = [['tool'], ['tool', '--help'], ['tool', '-h'], ['--help', 'tool']];
    const runs = await Promise.all(variants.map((args) => cli(['--config', config, ...args])));
    for (const run of runs) {
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stdout, /^The commands of the plugin "tool":\n\n/);
      assert.match(run.stdout, /\n {2}mcp-gateway tool upper < IN > OUT\n {6}Copies stdin to stdout, upper-cased\.\n/);
      assert.match(run.stdout, /\n {2}mcp-gateway tool three\n {6}Exits with status 3\.\n/);
      assert.match(run.stdout, /\(mcp-gateway \[--config FILE\] \[--workspace DIR\] PLUGIN COMMAND \[ARGS\.\.\.\]\)/);
      assert.equal(run.stdout, runs[0]!.stdout);
    }
  });

  it('an unknown command lists the plugin\'s commands', async () => {
    const run = await cli(['--config', config, 'tool', 'exprot']);
    assert.equal(run.code, 1);
    assert.equal(run.stdout, '');
    assert.match(run.stderr, /^Plugin "tool" has no command "exprot"\. Its commands:\n\n {2}mcp-gateway tool upper < IN > OUT\n {6}Copies stdin/);
    assert.match(run.stderr, /mcp-gateway tool crash\n {6}Fails with a plain error\./);
  });

  it('an unknown plugin lists the enabled plugins that have commands', async () => {
    const run = await cli(['--config', config, 'nosuch', 'export']);
    assert.equal(run.code, 1);
    assert.match(run.stderr, /^Unknown command "nosuch": it is neither a command of mcp-gateway \(mcp-gateway --help lists them\) nor a plugin in the registry\./);
    assert.match(run.stderr, /Enabled plugins with commands: tool \(upper, args, three, refuse, crash, where, wait, flood\)\./);
  });

  it('says where --config goes when it follows a word that is no plugin', async () => {
    const run = await cli(['nosuch', '--config', config], { cwd: dir });
    assert.equal(run.code, 1);
    assert.match(run.stderr, /--config and --workspace go before the plugin's name/);
  });

  it('a plugin that is not enabled, or has no commands, is named as such', async () => {
    const idle = await cli(['--config', config, 'idle', 'export']);
    assert.equal(idle.code, 1);
    assert.match(idle.stderr, /^Plugin "idle" is in the registry but not enabled in .*gateway\.config\.yaml; enable it under plugins:/);
    const quiet = await cli(['--config', config, 'quiet']);
    assert.equal(quiet.code, 1);
    assert.match(quiet.stderr, /^Plugin "quiet" adds no commands\. Enabled plugins with commands: tool \(/);
  });

  it('refuses any other gateway option before the plugin\'s name', async () => {
    const run = await cli(['--config', config, '--json', 'tool', 'three']);
    assert.equal(run.code, 1);
    assert.match(run.stderr, /Unknown option '--json'\nBefore a plugin's name only --config FILE and --workspace DIR are accepted/);
  });

  it('mcp-gateway --help mentions plugin commands', async () => {
    const run = await cli(['--help']);
    assert.match(run.stdout, /\n {2}mcp-gateway PLUGIN COMMAND \[ARGS\.\.\.\] {2}a command a plugin adds \(mcp-gateway PLUGIN --help lists them\)/);
  });
});

// A config command: `mcp-gateway counter ...` edits plugins.counter of the config file, with no
// gateway started. `both` also records a ctx.command, which could never be reached.
const COUNTER_PLUGIN = `
export default {
  name: 'counter',
  version: '1.0.0',
  description: 'A config command for the CLI tests.',
  configCommand(args, io) {
    const at = args.indexOf('--config');
    const file = io.openConfig(at < 0 ? undefined : args[at + 1]);
    const [verb, name] = args.filter((_, i) => at < 0 || (i !== at && i !== at + 1));
    if (verb === 'add') {
      file.append(['config', 'items'], { name });
      io.stdout.write('added ' + name + '\\n');
      return;
    }
    if (verb === 'list') {
      io.stdout.write(JSON.stringify({ path: file.path, named: file.named, exists: file.exists, items: file.list(['config', 'items']) }) + '\\n');
      return;
    }
    io.stderr.write('add NAME or list\\n');
    return 2;
  },
  setup() {},
};
`;

describe('mcp-gateway PLUGIN with a configCommand', () => {
  const { dir, config } = setup();
  const registry = join(dir, 'registry');
  writeFileSync(join(dir, 'counter.mjs'), COUNTER_PLUGIN);
  writeFileSync(join(dir, 'both.mjs'), COUNTER_PLUGIN.replace("name: 'counter'", "name: 'both'").replace('setup() {}', "setup(ctx) { ctx.command({ name: 'never', description: 'Unreachable.' }, () => 0); }"));
  for (const name of ['counter', 'both']) writeFileSync(join(registry, `${name}.yaml`), stringify({ name, module: `../${name}.mjs` }));

  it('runs without starting the gateway, though the plugin is not enabled', async () => {
    const before = await cli(['--config', config, 'counter', 'list']);
    assert.equal(before.code, 0, before.stderr);
    assert.deepEqual(JSON.parse(before.stdout), { path: config, named: true, exists: true, items: [] });
    // logLevel is info in this config: a boot would have logged "gateway ready".
    assert.equal(before.stderr, '');
    assert.deepEqual(await cli(['--config', config, 'counter', 'add', 'one']), { code: 0, stdout: 'added one\n', stderr: '' });
    assert.deepEqual(await cli(['--config', config, 'counter', 'add', 'two']), { code: 0, stdout: 'added two\n', stderr: '' });
    const written = parse(readFileSync(config, 'utf8'));
    assert.deepEqual(written.plugins.counter, { config: { items: [{ name: 'one' }, { name: 'two' }] } });
    assert.deepEqual(written.plugins.tool, {}, 'the rest of the file is as it was');
  });

  it('finds ./gateway.config.yaml in the working directory when no file is named, and exits with its status', async () => {
    // The registry that knows counter is named by this file's registries, found the same way.
    const { dir: folder, config: local } = setup();
    writeFileSync(join(folder, 'counter.mjs'), COUNTER_PLUGIN);
    writeFileSync(join(folder, 'registry', 'counter.yaml'), stringify({ name: 'counter', module: '../counter.mjs' }));
    const run = await cli(['counter', 'list'], { cwd: folder });
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(JSON.parse(run.stdout), { path: local, named: false, exists: true, items: [] });
    const unknown = await cli(['--config', local, 'counter', 'rename']);
    assert.deepEqual(unknown, { code: 2, stdout: '', stderr: 'add NAME or list\n' });
  });

  it('a plugin that also records ctx.command commands does not load: they could never run', async () => {
    const { dir: folder, config: mixed } = setup({ plugins: { both: {} } });
    writeFileSync(join(folder, 'both.mjs'), readFileSync(join(dir, 'both.mjs')));
    writeFileSync(join(folder, 'registry', 'both.yaml'), stringify({ name: 'both', module: '../both.mjs' }));
    const run = await cli(['--config', mixed, 'tools']);
    assert.equal(run.code, 1);
    assert.match(run.stderr, /COMMAND_DEFINITION_INVALID: Plugin "both" has a configCommand, which answers every `mcp-gateway both \.\.\.`, so its commands \(never\) could never run/);
  });
});
