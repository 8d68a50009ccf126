// `.loop/` trees for stash tests: build one from an inline literal, and snapshot what a stash captures
// (every entry below a non-dotfile name) with its type, permission bits and content hash.
import { createHash } from 'node:crypto';
import { chmodSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** A file's content (mode 0644), or a file with a mode, a link, or a folder. */
export type TreeNode = string | Buffer | { content: string | Buffer; mode: number } | { link: string } | { dir: number };

/** Path under `.loop/` → node; parents are created (0755) as needed. */
export type TreeSpec = Record<string, TreeNode>;

/** Write `spec` under `loopDir`; folder modes are applied last so read-only folders can be filled. */
export function writeTree(loopDir: string, spec: TreeSpec): void {
  const folderModes: [string, number][] = [];
  for (const [path, node] of Object.entries(spec)) {
    const abs = join(loopDir, path);
    if (typeof node === 'object' && 'dir' in node) {
      mkdirSync(abs, { recursive: true });
      folderModes.push([abs, node.dir]);
      continue;
    }
    mkdirSync(dirname(abs), { recursive: true });
    if (typeof node === 'object' && 'link' in node) {
      symlinkSync(node.link, abs);
    } else if (typeof node === 'string' || Buffer.isBuffer(node)) {
      writeFileSync(abs, node, { mode: 0o644 });
      chmodSync(abs, 0o644);
    } else {
      writeFileSync(abs, node.content);
      chmodSync(abs, node.mode);
    }
  }
  for (const [abs, mode] of folderModes.reverse()) chmodSync(abs, mode);
}

/**
 * Every entry under the non-dotfile names of `loopDir`: `file <mode> <sha256>`, `dir <mode>` or
 * `link <target>`, by path. Two equal snapshots mean a byte-exact, permission-exact tree.
 */
export function loopSnapshot(loopDir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const visit = (path: string): void => {
    const abs = join(loopDir, path);
    const stats = lstatSync(abs);
    const mode = (stats.mode & 0o777).toString(8).padStart(3, '0');
    if (stats.isSymbolicLink()) {
      out[path] = `link ${readlinkSync(abs)}`;
    } else if (stats.isDirectory()) {
      out[path] = `dir ${mode}`;
      for (const name of readdirSync(abs).sort()) visit(`${path}/${name}`);
    } else if (stats.isFile()) {
      out[path] = `file ${mode} ${createHash('sha256').update(readFileSync(abs)).digest('hex')}`;
    } else {
      out[path] = `special ${mode}`; // a FIFO: opening it would block
    }
  };
  for (const name of readdirSync(loopDir).sort()) if (!name.startsWith('.')) visit(name);
  return out;
}

/** The names directly in `loopDir`, sorted. */
export function loopNames(loopDir: string): string[] {
  return readdirSync(loopDir).sort();
}

/** A rich tree: nested folders, binary, empty and executable files, unicode names, a link. */
export function richTree(): TreeSpec {
  const binary = Buffer.alloc(4096);
  for (let i = 0; i < binary.length; i += 1) binary[i] = (i * 131 + 7) % 256;
  return {
    'yoke.conf': 'mode loop\nagent cmd true\n',
    'plan.md': '# Plan\n\nBuild it.\n',
    'notes.md': 'STATUS: IN_PROGRESS\nhalf done\n',
    'verdict.md': 'VERDICT: FAIL\nmissing tests\n',
    'empty.txt': '',
    'blob.bin': binary,
    'run.sh': { content: '#!/bin/sh\necho hi\n', mode: 0o755 },
    'secret.txt': { content: 'only me\n', mode: 0o600 },
    'docs/a/b/c/deep.md': 'deep\n',
    'docs/a/.hidden': 'a dotfile inside a folder is captured\n',
    'docs/empty-dir': { dir: 0o755 },
    'docs/locked': { dir: 0o555 },
    'ünïcødé – 日本語 😀.md': 'unicode name\n',
    'with space.txt': 'spaces\n',
    'docs/plan-link': { link: '../plan.md' },
    'dangling': { link: 'does-not-exist' },
  };
}
