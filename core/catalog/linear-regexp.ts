import { createRequire } from 'node:module';
import type { RE2JS } from 're2js';
import { ecmaToRe2 } from './ecma-to-re2.js';

const require = createRequire(import.meta.url);
let re2js: typeof import('re2js') | undefined;

/**
 * re2js, loaded by the first foreign pattern rather than at start-up, where its 260 KB cost
 * 10-15 ms to every start, with or without a relayed server; synchronously (its CommonJS
 * build), since Ajv compiles synchronously.
 */
function re2(): typeof RE2JS {
  re2js ??= require('re2js') as typeof import('re2js');
  return re2js.RE2JS;
}

/**
 * The largest program (RE2 instructions) a foreign pattern runs on RE2 with; a larger one runs on
 * V8's engine. The largest we met in real tool schemas is about 2,000 (`^.{1,1000}$`); RE2's own
 * limit, 1.4 million, would let one pattern hold tens of megabytes for as long as its tool is
 * listed, and RE2's time, linear in the text, grows with the program too.
 */
export const MAX_PATTERN_SIZE = 10_000;

/** A compiled pattern, as Ajv uses one. */
export interface PatternMatcher {
  test(input: string): boolean;
  /** Ajv shares one compiled pattern among schemas by this key: it must differ per pattern. */
  toString(): string;
}

/**
 * `pattern` on RE2 (re2js, pure JavaScript), whose time is linear in the text: `^(a+)+$`
 * against 40 `a`s and `!` takes as long as `^a+$`, where V8's backtracking engine would take
 * hours. The pattern keeps its ECMAScript meaning (ecma-to-re2.ts); one RE2 cannot run with that
 * meaning (a backreference, a lookaround, a repeat count over 1,000, a Unicode property RE2 does
 * not know), or that compiles past MAX_PATTERN_SIZE, throws, saying why: foreign-schema.ts then
 * runs it on V8's engine. `pattern` must be a valid ECMAScript pattern under `flags` (the caller
 * checks). Linear is not always quick (a few hundred nanoseconds per character and instruction
 * when RE2's DFA gives up): compileForeignSchema bounds each validation's time.
 */
export function linearRegExp(pattern: string, flags: string): PatternMatcher {
  let compiled: RE2JS;
  try {
    const engine = re2();
    compiled = engine.compile(engine.translateRegExp(ecmaToRe2(pattern)));
  } catch (err) {
    throw new Error(`the pattern ${shownPattern(pattern)} cannot run on the gateway's linear-time engine (RE2): ${(err as Error).message}`);
  }
  const size = compiled.programSize();
  if (size > MAX_PATTERN_SIZE) {
    throw new Error(`the pattern ${shownPattern(pattern)} compiles to ${size} instructions, more than the ${MAX_PATTERN_SIZE} RE2 is given`);
  }
  let running = false;
  return {
    test(input: string): boolean {
      // Still running: the last test was stopped by the time bound (foreign-schema.ts).
      if (running) forgetCaches(compiled);
      running = true;
      const found = compiled.test(input);
      running = false;
      return found;
    },
    toString: () => `/${pattern}/${flags}`,
  };
}

/**
 * Drops the caches a test stopped half way by the time bound may have left half built: the NFA
 * machines and the DFA, which RE2 builds again on the next test. The compiled program, the
 * one-pass program and the prefilter are only read while matching, and are kept.
 */
function forgetCaches(compiled: RE2JS): void {
  compiled.reset();
  (compiled.re2Input as unknown as { lazyDFA: unknown }).lazyDFA = null;
}

/** A pattern for a message: quoted, and cut so that a long one does not fill it. */
export function shownPattern(pattern: string): string {
  return JSON.stringify(pattern.length > 100 ? `${pattern.slice(0, 100)}…` : pattern);
}
