export interface Language {
  readonly id: string;
  readonly name: string;
  readonly extensions: readonly string[];
  /** Exact file names (Dockerfile, Makefile…). */
  readonly filenames?: readonly string[];
  /** Interpreters named in a `#!` line. */
  readonly interpreters?: readonly string[];
}

const lang = (id: string, name: string, extensions: string[], more: Partial<Language> = {}): Language => ({ id, name, extensions, ...more });

/** Ids follow the names editors use (VS Code's language identifiers where they exist). */
export const LANGUAGES: readonly Language[] = [
  lang('typescript', 'TypeScript', ['.ts', '.mts', '.cts']),
  lang('typescriptreact', 'TypeScript JSX', ['.tsx']),
  lang('javascript', 'JavaScript', ['.js', '.mjs', '.cjs'], { interpreters: ['node', 'nodejs', 'deno', 'bun'] }),
  lang('javascriptreact', 'JavaScript JSX', ['.jsx']),
  lang('json', 'JSON', ['.json', '.jsonc', '.json5', '.geojson', '.webmanifest'], { filenames: ['.babelrc', '.eslintrc', 'tsconfig.json'] }),
  lang('python', 'Python', ['.py', '.pyi', '.pyw'], { interpreters: ['python', 'python2', 'python3'] }),
  lang('ruby', 'Ruby', ['.rb', '.rake', '.gemspec'], { filenames: ['Gemfile', 'Rakefile'], interpreters: ['ruby'] }),
  lang('go', 'Go', ['.go'], { filenames: ['go.mod', 'go.sum'] }),
  lang('rust', 'Rust', ['.rs']),
  lang('java', 'Java', ['.java']),
  lang('kotlin', 'Kotlin', ['.kt', '.kts']),
  lang('scala', 'Scala', ['.scala', '.sc']),
  lang('groovy', 'Groovy', ['.groovy', '.gradle'], { filenames: ['Jenkinsfile'] }),
  lang('c', 'C', ['.c', '.h']),
  lang('cpp', 'C++', ['.cpp', '.cc', '.cxx', '.hpp', '.hh', '.hxx', '.ino']),
  lang('csharp', 'C#', ['.cs', '.csx']),
  lang('fsharp', 'F#', ['.fs', '.fsi', '.fsx']),
  lang('swift', 'Swift', ['.swift']),
  lang('objective-c', 'Objective-C', ['.m', '.mm']),
  lang('php', 'PHP', ['.php', '.phtml'], { interpreters: ['php'] }),
  lang('perl', 'Perl', ['.pl', '.pm', '.t'], { interpreters: ['perl'] }),
  lang('lua', 'Lua', ['.lua'], { interpreters: ['lua'] }),
  lang('r', 'R', ['.r', '.rmd'], { interpreters: ['Rscript'] }),
  lang('julia', 'Julia', ['.jl'], { interpreters: ['julia'] }),
  lang('dart', 'Dart', ['.dart']),
  lang('elixir', 'Elixir', ['.ex', '.exs'], { interpreters: ['elixir'] }),
  lang('erlang', 'Erlang', ['.erl', '.hrl'], { interpreters: ['escript'] }),
  lang('haskell', 'Haskell', ['.hs', '.lhs'], { interpreters: ['runhaskell'] }),
  lang('ocaml', 'OCaml', ['.ml', '.mli']),
  lang('clojure', 'Clojure', ['.clj', '.cljs', '.cljc', '.edn']),
  lang('zig', 'Zig', ['.zig']),
  lang('nim', 'Nim', ['.nim']),
  lang('shellscript', 'Shell', ['.sh', '.bash', '.zsh', '.ksh'], { filenames: ['.bashrc', '.zshrc', '.profile'], interpreters: ['sh', 'bash', 'zsh', 'ksh', 'dash'] }),
  lang('fish', 'Fish', ['.fish'], { interpreters: ['fish'] }),
  lang('powershell', 'PowerShell', ['.ps1', '.psm1', '.psd1'], { interpreters: ['pwsh'] }),
  lang('bat', 'Batch', ['.bat', '.cmd']),
  lang('html', 'HTML', ['.html', '.htm', '.xhtml']),
  lang('css', 'CSS', ['.css']),
  lang('scss', 'SCSS', ['.scss']),
  lang('less', 'Less', ['.less']),
  lang('vue', 'Vue', ['.vue']),
  lang('svelte', 'Svelte', ['.svelte']),
  lang('xml', 'XML', ['.xml', '.xsd', '.xsl', '.svg', '.plist', '.csproj']),
  lang('yaml', 'YAML', ['.yaml', '.yml']),
  lang('toml', 'TOML', ['.toml'], { filenames: ['Cargo.lock', 'Pipfile'] }),
  lang('ini', 'INI', ['.ini', '.cfg', '.conf', '.properties'], { filenames: ['.editorconfig', '.gitconfig'] }),
  lang('dotenv', 'Dotenv', ['.env'], { filenames: ['.env', '.env.local', '.env.example'] }),
  lang('markdown', 'Markdown', ['.md', '.markdown', '.mdx']),
  lang('restructuredtext', 'reStructuredText', ['.rst']),
  lang('latex', 'LaTeX', ['.tex', '.sty', '.cls']),
  lang('plaintext', 'Plain text', ['.txt', '.text', '.log'], { filenames: ['LICENSE', 'README', 'AUTHORS', 'CHANGELOG'] }),
  lang('sql', 'SQL', ['.sql']),
  lang('graphql', 'GraphQL', ['.graphql', '.gql']),
  lang('proto', 'Protocol Buffers', ['.proto']),
  lang('dockerfile', 'Dockerfile', ['.dockerfile'], { filenames: ['Dockerfile', 'Containerfile'] }),
  lang('makefile', 'Makefile', ['.mk', '.mak'], { filenames: ['Makefile', 'makefile', 'GNUmakefile'], interpreters: ['make'] }),
  lang('cmake', 'CMake', ['.cmake'], { filenames: ['CMakeLists.txt'] }),
  lang('terraform', 'Terraform', ['.tf', '.tfvars', '.hcl']),
  lang('nix', 'Nix', ['.nix']),
  lang('ignore', 'Ignore file', [], { filenames: ['.gitignore', '.dockerignore', '.npmignore', '.eslintignore', '.prettierignore'] }),
  lang('diff', 'Diff', ['.diff', '.patch']),
  lang('csv', 'CSV', ['.csv', '.tsv']),
  lang('solidity', 'Solidity', ['.sol']),
  lang('verilog', 'Verilog', ['.v', '.sv', '.svh']),
  lang('vhdl', 'VHDL', ['.vhd', '.vhdl']),
  lang('fortran', 'Fortran', ['.f', '.for', '.f90', '.f95', '.f03']),
  lang('cobol', 'COBOL', ['.cob', '.cbl', '.cpy']),
  lang('ada', 'Ada', ['.adb', '.ads']),
  lang('pascal', 'Pascal', ['.pas', '.pp', '.dpr']),
  lang('d', 'D', ['.d']),
  lang('tcl', 'Tcl', ['.tcl'], { interpreters: ['tclsh', 'wish'] }),
];

const byExtension = new Map<string, Language>();
const byFilename = new Map<string, Language>();
const byInterpreter = new Map<string, Language>();
for (const language of LANGUAGES) {
  for (const ext of language.extensions) byExtension.set(ext, language);
  for (const name of language.filenames ?? []) byFilename.set(name, language);
  for (const interpreter of language.interpreters ?? []) byInterpreter.set(interpreter, language);
}

/** By exact file name, then extension (case-insensitive), else undefined. */
export function languageOfName(fileName: string): Language | undefined {
  const exact = byFilename.get(fileName);
  if (exact) return exact;
  if (/^Dockerfile\./.test(fileName)) return byFilename.get('Dockerfile');
  const dot = fileName.lastIndexOf('.');
  return dot > 0 || fileName.startsWith('.') ? byExtension.get(fileName.slice(dot).toLowerCase()) : undefined;
}

/** From a `#!` first line: `#!/usr/bin/env python3`, `#!/bin/bash -e`. */
export function languageOfShebang(firstLine: string): Language | undefined {
  const match = /^#!\s*(\S+)(?:\s+(\S+))?/.exec(firstLine);
  if (!match) return undefined;
  let interpreter = match[1]!.split('/').pop()!;
  if (interpreter === 'env' && match[2]) interpreter = match[2];
  return byInterpreter.get(interpreter) ?? byInterpreter.get(interpreter.replace(/[\d.]+$/, ''));
}
