// Durable file writes, the one way every part writes a file a reader may open meanwhile: a temp file beside
// it, fsynced, renamed over it, the folder fsynced — so a reader (or a resumed run) sees the old file or the
// new one, never half of one, even after a crash.
import { closeSync, fchmodSync, fsyncSync, openSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { chmod, copyFile, open, rename, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';

/** Flushes a folder's entry table, so a rename inside it survives a crash. */
function fsyncDir(dir: string): void {
  try {
    const fd = openSync(dir, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Some file systems refuse fsync on a folder; the rename is still atomic there.
  }
}

/**
 * Writes `content` to a temp file next to `path`, fsyncs it, renames it over `path`, fsyncs the folder.
 * With `mode` the file has exactly that mode from the start (whatever the umask): a secret is never
 * briefly readable by others.
 */
export function writeFileAtomicSync(path: string, content: string, mode?: number): void {
  const tmp = `${path}.tmp-${process.pid}`;
  const fd = openSync(tmp, 'w', mode ?? 0o644);
  let fdOpen = true;
  try {
    if (mode !== undefined) fchmodSync(fd, mode);
    writeSync(fd, content);
    fsyncSync(fd);
    fdOpen = false;
    closeSync(fd);
    renameSync(tmp, path);
  } catch (err) {
    // A full disk fails the write: leave no temp file behind (nor an open descriptor).
    if (fdOpen) closeSync(fd);
    try {
      unlinkSync(tmp);
    } catch {}
    throw err;
  }
  fsyncDir(dirname(path));
}

/** A file written piece by piece under a temp name and published by `commit()` (fsync + rename). */
export class AtomicWriter {
  readonly tmp: string;
  private fh: Awaited<ReturnType<typeof open>> | undefined;

  private constructor(readonly path: string) {
    this.tmp = `${path}.tmp-${process.pid}`;
  }

  /** Opens the temp file for `path`. */
  static async open(path: string): Promise<AtomicWriter> {
    const w = new AtomicWriter(path);
    w.fh = await open(w.tmp, 'w', 0o644);
    return w;
  }

  /** Appends text. */
  async write(text: string): Promise<void> {
    if (!this.fh) throw new Error(`AtomicWriter: ${this.path} is already closed`);
    await this.fh.write(text);
  }

  /** Flushes the temp file to disk and renames it to the final name. */
  async commit(): Promise<void> {
    if (!this.fh) throw new Error(`AtomicWriter: ${this.path} is already closed`);
    await this.fh.sync();
    await this.fh.close();
    this.fh = undefined;
    await rename(this.tmp, this.path);
    fsyncDir(dirname(this.path));
  }

  /** Drops the temp file (after an error); the final file is untouched. */
  async abort(): Promise<void> {
    if (this.fh) {
      await this.fh.close().catch(() => {});
      this.fh = undefined;
    }
    await unlink(this.tmp).catch(() => {});
  }
}

/** Copies `src` to `path` the same way (temp copy with `mode`, fsync, rename, folder fsync). */
export async function copyFileAtomic(src: string, path: string, mode: number): Promise<void> {
  const tmp = `${path}.tmp-${process.pid}`;
  try {
    await copyFile(src, tmp);
    await chmod(tmp, mode);
    const fh = await open(tmp, 'r+');
    try {
      await fh.sync();
    } finally {
      await fh.close();
    }
    await rename(tmp, path);
  } catch (err) {
    await unlink(tmp).catch(() => {});
    throw err;
  }
  fsyncDir(dirname(path));
}
