// `mcp-gateway plugin new` (issue 11, item 8): the package it writes, in a folder outside the
// repository, installs, builds and passes its own test with the commands its README prints.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { lstatSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { BIN, ROOT, tempDir } from '../helpers.js';
import { localPrebuildEnv } from '../support/local-prebuild.js';

function cli(args: string[], cwd: string) {
  const result = spawnSync(process.execPath, [BIN, ...args], { cwd, encoding: 'utf8' });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** The lines of the README's first ```sh block: the commands it tells a user to run. */
function readmeCommands(readme: string): string[] {
  const block = /```sh\n([\s\S]*?)```/.exec(readme)?.[1];
  assert.ok(block, 'the README has a ```sh block');
  return block.split('\n').map((l) => l.trim()).filter(Boolean);
}

/** Runs each shell command in `dir` as a user would; `npm test`'s report must show the six tests passed. */
function runCommands(dir: string, commands: readonly string[], extraEnv: Record<string, string> = {}): void {
  // The suite runs under node --test: its marker would turn the package's own run into a child report.
  const { NODE_TEST_CONTEXT: _, ...env } = process.env;
  for (const command of commands) {
    const run = spawnSync('sh', ['-c', command], {
      cwd: dir,
      encoding: 'utf8',
      env: { ...env, ...extraEnv, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' },
    });
    assert.equal(run.status, 0, `${command} failed:\n${run.stdout}\n${run.stderr}`);
    if (command === 'npm test') {
      // Node 20 reports as TAP when stdout is not a terminal, Node 24 in its spec form.
      assert.match(run.stdout, /^(# |ℹ )pass 6$/m, run.stdout);
      assert.match(run.stdout, /^(# |ℹ )fail 0$/m, run.stdout);
    }
  }
}

describe('mcp-gateway plugin new', () => {
  it('writes a package outside the repository that installs, builds and passes its own test', () => {
    const dir = join(realpathSync(tempDir('mcpgw-scaffold-')), 'weather-desk');
    assert.ok(!dir.startsWith(ROOT), 'the scaffold lives outside the repository');
    const made = cli(['plugin', 'new', 'weather-desk', '--dir', dir], ROOT);
    assert.equal(made.code, 0, made.stderr);
    assert.match(made.stdout, /Wrote the plugin "weather-desk" in .*weather-desk:\n  package.json\n/);

    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    assert.match(pkg.peerDependencies['@mcp-gateway/core'], /^\^\d+\.\d+\.\d+$/);
    assert.match(pkg.devDependencies['@mcp-gateway/core'], /^file:\.\.\/.*\/core$/);
    const yaml = readFileSync(join(dir, 'registry', 'weather-desk.yaml'), 'utf8');
    assert.match(yaml, /^name: weather-desk\nmodule: \.\.\/dist\/index\.js/m);
    assert.match(readFileSync(join(dir, 'index.ts'), 'utf8'), /name: 'weather_desk_greet'[\s\S]*as const satisfies ToolDefinition/);
    // The guide's five-minute path puts a gateway config beside package.json: its state stays out of git.
    assert.deepEqual(readFileSync(join(dir, '.gitignore'), 'utf8').split('\n').filter(Boolean), ['node_modules/', 'dist/', '.gateway/']);

    const commands = readmeCommands(readFileSync(join(dir, 'README.md'), 'utf8'));
    assert.deepEqual(commands, ['npm install', 'npm run build', 'npm test']);
    runCommands(dir, commands);
    assert.ok(lstatSync(join(dir, 'node_modules', '@mcp-gateway', 'core')).isSymbolicLink(), 'the checkout\'s core is linked');

    // The guide's next step: a config beside package.json, and `npx mcp-gateway`, which is the
    // linked core's bin (--no: never the unrelated package of that name from the registry).
    writeFileSync(join(dir, 'demo.yaml'), 'registries:\n  - registry\nplugins:\n  weather-desk:\n    config:\n      greeting: Hello\n');
    const call = spawnSync('npx', ['--no', 'mcp-gateway', 'call', 'weather_desk_greet', '{"name": "Ada"}', '--config', 'demo.yaml'], { cwd: dir, encoding: 'utf8' });
    assert.equal(call.status, 0, call.stderr);
    assert.match(call.stdout, /Hello, Ada!/);
  });

  it('installs core from its packed tarball, as from the registry, and passes its test', () => {
    const work = realpathSync(tempDir('mcpgw-scaffold-'));
    const dir = join(work, 'packed-desk');
    assert.equal(cli(['plugin', 'new', 'packed-desk', '--dir', dir], ROOT).code, 0);
    const pack = spawnSync('npm', ['pack', '--workspace', 'core', '--pack-destination', dir, '--json'], { cwd: ROOT, encoding: 'utf8' });
    assert.equal(pack.status, 0, pack.stderr);
    const [{ filename, files }] = JSON.parse(pack.stdout) as [{ filename: string; files: { path: string }[] }];
    // Only what core publishes: compiled code, declarations and the shipped registry, no sources.
    assert.ok(files.some((f) => f.path === 'dist/index.js') && files.some((f) => f.path === 'registry/files.yaml'));
    assert.deepEqual(files.filter((f) => f.path.endsWith('.ts') && !f.path.endsWith('.d.ts')).map((f) => f.path), []);

    const manifest = join(dir, 'package.json');
    const pkg = JSON.parse(readFileSync(manifest, 'utf8'));
    pkg.devDependencies['@mcp-gateway/core'] = `file:./${filename}`;
    writeFileSync(manifest, JSON.stringify(pkg, null, 2));
    runCommands(dir, ['npm install --prefer-offline', 'npm run build', 'npm test'], localPrebuildEnv(join(work, 'prebuilds')));
    assert.ok(lstatSync(join(dir, 'node_modules', '@mcp-gateway', 'core')).isDirectory(), 'core is installed, not linked');
  });

  const refused: Array<[string, string[], RegExp]> = [
    ['a name that is not a plugin name', ['plugin', 'new', 'Weather_Desk'], /"Weather_Desk" is not a plugin name: lower-case letters, digits and "-"/],
    ['a reserved name', ['plugin', 'new', 'gateway'], /"gateway" is reserved: it names the gateway itself/],
    ['no name', ['plugin', 'new'], /Usage: mcp-gateway plugin new NAME \[--dir DIR\]/],
  ];
  for (const [label, args, message] of refused) {
    it(`refuses ${label}`, () => {
      const result = cli(args, tempDir());
      assert.equal(result.code, 1);
      assert.match(result.stderr, message);
    });
  }

  it('never writes into a folder that is not empty', () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'taken'));
    writeFileSync(join(dir, 'taken', 'index.ts'), 'mine');
    const result = cli(['plugin', 'new', 'taken'], dir);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /taken is not empty; plugin new writes only into a new or empty folder/);
    assert.equal(readFileSync(join(dir, 'taken', 'index.ts'), 'utf8'), 'mine');
  });
});
