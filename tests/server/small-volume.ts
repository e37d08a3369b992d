/**
 * A small file system of a test's own (a tmpfs; mounting needs root) and filling it to the last
 * byte, for the tests of a full disk.
 */
import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A small tmpfs of its own, or the reason there is none. */
export function mountSmallVolume(sizeMb: number, prefix = 'full-disk-'): { dir: string } | { reason: string } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeMb}m`, 'tmpfs', dir], { stdio: 'pipe' });
    return { dir };
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    return { reason: `cannot mount a tmpfs (${String((err as Error).message).split('\n')[0]}); needs root` };
  }
}

/** Unmounts and removes a volume of mountSmallVolume. */
export function unmountSmallVolume(dir: string): void {
  try {
    execFileSync('umount', [dir], { stdio: 'pipe' });
  } catch {
    /* still busy: left to the system's clean-up */
  }
  rmSync(dir, { recursive: true, force: true });
}

/** Fills the volume of `dir` to the last byte; answers the filler's path. */
export function fill(dir: string): string {
  const path = join(dir, 'filler.bin');
  const fd = openSync(path, 'w');
  const chunk = Buffer.alloc(256 * 1024, 1);
  try {
    for (;;) writeSync(fd, chunk);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
    // the last partial page
    try {
      for (;;) writeSync(fd, chunk.subarray(0, 512));
    } catch {
      /* full */
    }
  } finally {
    closeSync(fd);
  }
  return path;
}
