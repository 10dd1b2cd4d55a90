import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';

/**
 * A real full disk: a tmpfs of `bytes` mounted on a fresh folder (root only; CI runs as
 * root). Returns the reason instead where it cannot be mounted, for the test to skip.
 * Unmounted when the test file ends.
 */
export function mountTinyDisk(bytes = 1024 * 1024): { dir: string; fill(): void; free(): void } | string {
  if (process.getuid?.() !== 0) return 'needs root to mount a tmpfs';
  const dir = mkdtempSync(join(tmpdir(), 'mcpgw-disk-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${bytes}`, 'tmpfs', dir], { stdio: 'ignore' });
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    return `mount -t tmpfs failed: ${(err as Error).message}`;
  }
  // Lazy: files the gateway still holds open keep the detached tmpfs alive until closed.
  after(() => {
    execFileSync('umount', ['-l', dir], { stdio: 'ignore' });
    rmSync(dir, { recursive: true, force: true });
  });
  const filler = join(dir, 'filler');
  return {
    dir,
    /** Takes every free byte (down to single bytes, so no partly filled block is left). */
    fill() {
      let n = 0;
      for (let size = bytes; size >= 1; size = Math.floor(size / 2)) {
        for (;;) {
          try {
            writeFileSync(`${filler}-${n}`, Buffer.alloc(size));
            n++;
          } catch {
            rmSync(`${filler}-${n}`, { force: true });
            break;
          }
        }
      }
    },
    free() {
      for (let i = 0; ; i++) {
        try {
          rmSync(`${filler}-${i}`);
        } catch {
          return;
        }
      }
    },
  };
}
