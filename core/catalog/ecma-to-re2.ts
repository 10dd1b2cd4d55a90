/** ECMAScript's `\s`: its whitespace and line terminators, in RE2's syntax (RE2's `\s` is ASCII only). */
const SPACE = '\\t\\n\\x{0B}\\f\\r \\x{A0}\\x{1680}\\x{2000}-\\x{200A}\\x{2028}\\x{2029}\\x{202F}\\x{205F}\\x{3000}\\x{FEFF}';
/** ECMAScript's `.` stops at every line terminator; RE2's only at `\n`. */
const DOT = '[^\\n\\r\\x{2028}\\x{2029}]';

/** ECMAScript's long General_Category names, as RE2 spells them. */
const CATEGORIES: Record<string, string> = {
  Letter: 'L', Uppercase_Letter: 'Lu', Lowercase_Letter: 'Ll', Titlecase_Letter: 'Lt', Modifier_Letter: 'Lm', Other_Letter: 'Lo',
  Mark: 'M', Nonspacing_Mark: 'Mn', Spacing_Mark: 'Mc', Enclosing_Mark: 'Me',
  Number: 'N', Decimal_Number: 'Nd', digit: 'Nd', Letter_Number: 'Nl', Other_Number: 'No',
  Punctuation: 'P', punct: 'P', Connector_Punctuation: 'Pc', Dash_Punctuation: 'Pd', Open_Punctuation: 'Ps', Close_Punctuation: 'Pe',
  Initial_Punctuation: 'Pi', Final_Punctuation: 'Pf', Other_Punctuation: 'Po',
  Symbol: 'S', Math_Symbol: 'Sm', Currency_Symbol: 'Sc', Modifier_Symbol: 'Sk', Other_Symbol: 'So',
  Separator: 'Z', Space_Separator: 'Zs', Line_Separator: 'Zl', Paragraph_Separator: 'Zp',
  Other: 'C', Control: 'Cc', cntrl: 'Cc', Format: 'Cf', Surrogate: 'Cs', Private_Use: 'Co',
};

/**
 * An ECMAScript pattern, already known to be valid with the `u` flag (what ajv uses), rewritten
 * where RE2 would read the same text with another meaning: `.`, `\s` and `\S` get ECMAScript's
 * sets of characters, and `\p{Script=Greek}` or `\p{Letter}` RE2's names. Inside a class, `\S`
 * stays RE2's, which also takes `\v` and the non-ASCII spaces. What RE2 cannot run at all
 * throws (the pattern then runs on V8's engine, foreign-schema.ts): backreferences (RE2's
 * translator would quietly read `\k<name>` as the letters `k<name>`) and lookarounds. The rest
 * (`\u…`, named groups, `[^]`) is left to re2js's translateRegExp, which runs after this.
 */
export function ecmaToRe2(pattern: string): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i]!;
    if (ch === '\\') {
      const next = pattern[++i] ?? '';
      if (next === 'k' || (next >= '1' && next <= '9')) throw new Error('backreferences are not supported');
      if (next === 's') out += inClass ? SPACE : `[${SPACE}]`;
      else if (next === 'S' && !inClass) out += `[^${SPACE}]`;
      else if ((next === 'p' || next === 'P') && pattern[i + 1] === '{') {
        const end = pattern.indexOf('}', i);
        out += `\\${next}{${re2PropertyName(pattern.slice(i + 2, end))}}`;
        i = end;
      } else out += `\\${next}`;
      continue;
    }
    if (inClass) {
      if (ch === ']') inClass = false;
      out += ch;
      continue;
    }
    // (With `u`, a `]` always closes a class, `[]` and `[^]` included, and classes do not nest.)
    if (ch === '[') inClass = true;
    else if (ch === '.') {
      out += DOT;
      continue;
    } else if (ch === '(' && pattern[i + 1] === '?') {
      // `(?=`, `(?!`, `(?<=`, `(?<!`; `(?<name>` is a named group.
      const opener = pattern.slice(i, pattern[i + 2] === '<' ? i + 4 : i + 3);
      if (opener.endsWith('=') || opener.endsWith('!')) throw new Error(`lookarounds (here "${opener}") are not supported`);
    }
    out += ch;
  }
  return out;
}

/**
 * `Script=Greek` and `sc=Greek` as `Greek`; `Letter`, `gc=Letter` and `General_Category=L` as
 * `L`. Other names (Script_Extensions, binary properties such as `Alphabetic`) are left for RE2
 * to refuse, or to take where it means the same.
 */
function re2PropertyName(name: string): string {
  const at = name.indexOf('=');
  if (at === -1) return CATEGORIES[name] ?? name;
  const [key, value] = [name.slice(0, at), name.slice(at + 1)];
  if (key === 'Script' || key === 'sc') return value;
  if (key === 'General_Category' || key === 'gc') return CATEGORIES[value] ?? value;
  return name;
}
