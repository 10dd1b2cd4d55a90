// The suite runs compiled, from dist/test (tsconfig.test.json, which also builds the plugin of
// docs/examples). tsc emits only what it compiles: the fixtures' JavaScript, YAML, HTML and
// data files are copied beside it here, so that a test finds every fixture in one tree, the
// TypeScript ones as their compiled .js.
import { cpSync, statSync } from 'node:fs';

const notTypeScript = (source) => statSync(source).isDirectory() || !source.endsWith('.ts');
cpSync('test', 'dist/test', { recursive: true, filter: notTypeScript });
cpSync('docs/examples', 'dist/docs/examples', { recursive: true, filter: notTypeScript });
