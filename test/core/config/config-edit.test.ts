import assert from 'node:assert/strict';
import { chmodSync, lstatSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parse } from 'yaml';
import { appendToList, listAt, parseConfigText, removeFromList, writeFileAtomic } from '../../../core/config/config-edit.js';
import { ROOT, tempDir } from '../../helpers.js';

const PATH = ['plugins', 'upstream', 'config', 'servers'];
const STYLE = { flow: ['args', 'env'], quoted: ['args'] };
const ITEM = { name: 'fs', command: 'npx', args: ['-y', 'pkg', '--flag'], env: { KEY: 'v' } };
const BLOCK = ['- name: fs', '  command: npx', '  args: ["-y", "pkg", "--flag"]', '  env: {KEY: v}'];

/** The lines of BLOCK at `column`, each ending in a newline. */
function block(column: number): string {
  return BLOCK.map((line) => `${' '.repeat(column)}${line}\n`).join('');
}

const add = (text: string) => appendToList(text, PATH, ITEM, 'test.yaml', STYLE);

describe('appendToList: the new lines spliced in, every other byte kept', () => {
  it('the shipped gateway.config.yaml: its aligned comments stay as they are', () => {
    const shipped = readFileSync(join(ROOT, 'gateway.config.yaml'), 'utf8');
    const out = add(shipped);
    assert.equal(out, `${shipped}  upstream:\n    config:\n      servers:\n${block(8)}`);
    assert.deepEqual(parse(out).plugins.upstream.config.servers, [ITEM]);
  });

  const cases: Array<[string, string, string]> = [
    ['an empty file', '', `plugins:\n  upstream:\n    config:\n      servers:\n${block(8)}`],
    ['only comments', '# nothing yet\n', `# nothing yet\nplugins:\n  upstream:\n    config:\n      servers:\n${block(8)}`],
    ['no plugins section, no final newline', 'dataDir: data   # here', `dataDir: data   # here\nplugins:\n  upstream:\n    config:\n      servers:\n${block(8)}`],
    ['an empty plugins:', 'plugins:   # none yet\nlogLevel: info\n', `plugins:   # none yet\n  upstream:\n    config:\n      servers:\n${block(8)}logLevel: info\n`],
    ['plugins: {}', 'plugins: {}  # c\n', `plugins:  # c\n  upstream:\n    config:\n      servers:\n${block(8)}`],
    ['upstream without config', 'plugins:\n  upstream:\n    optional: true\nx: 1\n', `plugins:\n  upstream:\n    optional: true\n    config:\n      servers:\n${block(8)}x: 1\n`],
    ['servers: [] (what remove leaves)', 'plugins:\n  upstream:\n    config:\n      servers: []   # c\n', `plugins:\n  upstream:\n    config:\n      servers:   # c\n${block(8)}`],
    [
      'a list in 4-space indentation, with comments under its last item and after it',
      'plugins:\n    upstream:\n        config:\n            servers:\n            - name: a\n              command: x   # x\n              # about a\n\n# the end\n',
      `plugins:\n    upstream:\n        config:\n            servers:\n            - name: a\n              command: x   # x\n              # about a\n${block(12)}\n# the end\n`,
    ],
    ['CRLF line ends', 'a: 1\r\nplugins:\r\n  files: {}\r\n', `a: 1\r\nplugins:\r\n  files: {}\r\n  upstream:\r\n    config:\r\n      servers:\r\n${block(8).replaceAll('\n', '\r\n')}`],
  ];
  for (const [label, text, expected] of cases) {
    it(label, () => assert.equal(add(text), expected));
  }

  it('a flow-style list: the Document API re-prints the file, with the same data', () => {
    const out = add('# servers\nplugins: {upstream: {config: {servers: [{name: a, url: "http://a"}]}}}\n');
    assert.match(out, /^# servers\n/);
    assert.deepEqual(parse(out).plugins.upstream.config.servers, [{ name: 'a', url: 'http://a' }, ITEM]);
  });

  it('keeps strings strings: numbers, booleans, # and ${VAR} are quoted as needed', () => {
    const item = { name: 'odd', command: 'x', args: ['8080', 'true', '#c', '${X}', "it's", 'a b'], env: { PORT: '1', T: '${TOKEN}' } };
    assert.deepEqual(parse(appendToList('', PATH, item, 'test.yaml', STYLE)).plugins.upstream.config.servers, [item]);
  });

  const refused: Array<[string, string, RegExp]> = [
    ['plugins is a list', 'plugins: [a]\n', /test\.yaml: plugins must be a mapping/],
    ['servers is a number', 'plugins:\n  upstream:\n    config:\n      servers: 3\n', /test\.yaml: plugins\.upstream\.config\.servers must be a list/],
    ['the top level is a list', '- a\n', /test\.yaml: the top level must be a mapping/],
    ['broken YAML', 'a: [\n', /test\.yaml is not valid YAML/],
  ];
  for (const [label, text, message] of refused) {
    it(`CONFIG_INVALID when ${label}`, () => {
      assert.throws(() => add(text), (err: any) => err.code === 'CONFIG_INVALID' && message.test(err.message));
    });
  }
});

describe('removeFromList', () => {
  const two = 'plugins:\n  upstream:\n    config:\n      servers:   # all of them\n        # the first\n        - name: a\n          command: x\n          # about a\n        - name: b   # b\n          url: http://b\nlogLevel: info\n';

  it('takes out one item\'s lines and leaves the comments around it', () => {
    assert.equal(
      removeFromList(two, PATH, 0, 'test.yaml'),
      'plugins:\n  upstream:\n    config:\n      servers:   # all of them\n        # the first\n        - name: b   # b\n          url: http://b\nlogLevel: info\n',
    );
    assert.equal(
      removeFromList(two, PATH, 1, 'test.yaml'),
      'plugins:\n  upstream:\n    config:\n      servers:   # all of them\n        # the first\n        - name: a\n          command: x\n          # about a\nlogLevel: info\n',
    );
  });

  it('the last item leaves `servers: []`, and adding again restores the layout', () => {
    const shipped = readFileSync(join(ROOT, 'gateway.config.yaml'), 'utf8');
    const emptied = removeFromList(add(shipped), PATH, 0, 'test.yaml');
    assert.equal(emptied, `${shipped}  upstream:\n    config:\n      servers: []\n`);
    assert.equal(add(emptied), add(shipped));
  });

  it('listAt reads the list as data, [] when it or a key on the way is missing', () => {
    assert.deepEqual(listAt(parseConfigText(two, 'test.yaml'), PATH, 'test.yaml').map((s: any) => s.name), ['a', 'b']);
    assert.deepEqual(listAt(parseConfigText('plugins:\n', 'test.yaml'), PATH, 'test.yaml'), []);
    assert.deepEqual(listAt(parseConfigText('', 'test.yaml'), PATH, 'test.yaml'), []);
  });
});

describe('writeFileAtomic', () => {
  it('keeps the mode, follows a symlink, and leaves no temp file', () => {
    const dir = tempDir();
    const file = join(dir, 'real.yaml');
    writeFileSync(file, 'a: 1\n');
    chmodSync(file, 0o640);
    symlinkSync(file, join(dir, 'link.yaml'));
    writeFileAtomic(join(dir, 'link.yaml'), 'a: 2\n');
    assert.equal(readFileSync(file, 'utf8'), 'a: 2\n');
    assert.equal(statSync(file).mode & 0o777, 0o640);
    assert.ok(lstatSync(join(dir, 'link.yaml')).isSymbolicLink(), 'the link is still a link');
    assert.deepEqual(readdirSync(dir).sort(), ['link.yaml', 'real.yaml']);
  });

  it('a folder that does not exist is CONFIG_INVALID naming the file', () => {
    const file = join(tempDir(), 'missing', 'x.yaml');
    assert.throws(() => writeFileAtomic(file, 'a: 1\n'), (err: any) => err.code === 'CONFIG_INVALID' && err.message.startsWith(`Cannot write ${file}:`));
  });
});
