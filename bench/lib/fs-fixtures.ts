import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The folder size the listing comparisons use (issue 20). */
export const LIST_ENTRIES = 200;

/** A folder of `entries` entries, one in four a folder: what an agent lists to find its way. */
export function writeListing(root: string, entries = LIST_ENTRIES): void {
  for (let i = 0; i < entries; i++) {
    const name = join(root, `entry_${String(i).padStart(3, '0')}`);
    if (i % 4 === 0) mkdirSync(name, { recursive: true });
    else writeFileSync(`${name}.ts`, `export const n = ${i};\n`);
  }
}

/** The 1 KiB text file the hop comparisons read: 16 lines of 64 bytes. */
export const SMALL_TEXT = Array.from({ length: 16 }, (_, i) => `line ${String(i + 1).padStart(2, '0')} of the upstream benchmark file: ${'x'.repeat(23)}\n`).join('');
