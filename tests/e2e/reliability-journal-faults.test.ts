// Environment faults under the journal (issue 20, item 4): a directory where the journal belongs
// (EISDIR), an immutable journal (EPERM), a full disk before and during a run (ENOSPC) and a
// read-only mount (EROFS). Each is made for real on this machine (chattr, a tiny tmpfs, a remount);
// yoke must refuse with exit 3 and one sentence naming the path and what to do, never "unexpected
// error", and `yoke run` must resume once the fault is gone.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { journalPath, readJournal } from '../support/journal-records.js';
import { makeJudgedWorkspace } from '../support/judged-workspace.js';
import { runYoke, type Workspace } from '../support/workspace.js';
import type { ShellScript } from '../support/shell-agent.js';

const TIMEOUT = 90_000;
const workspaces: Workspace[] = [];
/** mount points to unmount after each test, innermost last */
const mounts: string[] = [];
/** files made immutable, to make mutable again before cleanup */
const immutable: string[] = [];

afterEach(async () => {
  for (const path of immutable.splice(0)) run('chattr', ['-i', path]);
  for (const point of mounts.splice(0).reverse()) run('umount', [point]);
  for (const ws of workspaces.splice(0)) await ws.cleanup();
});

/** Run a system command: null when it exited 0, else why not (its stderr's last line, or the error). */
function attempt(command: string, args: string[]): string | null {
  try {
    execFileSync(command, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    return null;
  } catch (error) {
    const stderr = String((error as { stderr?: Buffer }).stderr ?? '').trim().split('\n').at(-1) ?? '';
    return `\`${command} ${args.join(' ')}\` failed: ${stderr || (error as Error).message}`;
  }
}

/** Run a system command; true when it exited 0. */
function run(command: string, args: string[]): boolean {
  return attempt(command, args) === null;
}

/** Why this process may not mount a tmpfs (not root, or a container that forbids it); null when it may. */
function whyNoTmpfs(): string | null {
  const probe = mkdtempSync(join(tmpdir(), 'yoke-mount-probe-'));
  try {
    const refused = attempt('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', probe]);
    if (refused === null) run('umount', [probe]);
    return refused;
  } finally {
    rmSync(probe, { recursive: true, force: true });
  }
}

/** Why a file here cannot be made immutable (chattr +i needs root and a file system with the flag); null when it can. */
function whyNoChattr(): string | null {
  const probe = mkdtempSync(join(tmpdir(), 'yoke-chattr-probe-'));
  const file = join(probe, 'f');
  try {
    execFileSync('touch', [file]);
    const refused = attempt('chattr', ['+i', file]);
    if (refused === null) run('chattr', ['-i', file]);
    return refused;
  } finally {
    rmSync(probe, { recursive: true, force: true });
  }
}

/** Probed once per file; a test that cannot make its fault here is skipped with the probe's reason as its note. */
const noTmpfs = whyNoTmpfs();
const noChattr = whyNoChattr();
// said once on stderr too: the default reporter does not list skipped tests with their notes
if (noTmpfs !== null) console.warn(`the ENOSPC and EROFS tests are skipped: this process may not mount a tmpfs (${noTmpfs})`);
if (noChattr !== null) console.warn(`the EPERM test is skipped: a file here cannot be made immutable (${noChattr})`);

const STEPS: ShellScript = { worker: [{ notes: 'IN_PROGRESS' }, { notes: 'DONE' }], after: { worker: { notes: 'DONE' } } };

async function workspace(script: ShellScript = STEPS): Promise<Workspace> {
  const { ws } = await makeJudgedWorkspace({ mode: 'loop', conf: ['max-iterations 4', 'commit off', 'guard ok true'], script });
  workspaces.push(ws);
  return ws;
}

/** A workspace whose run was killed (-9) mid-run: `yoke run` has something to resume. */
async function crashedRun(): Promise<Workspace> {
  const ws = await workspace();
  const crashed = await runYoke(ws, ['run', '--quiet'], { env: { YOKE_FAILPOINT: 'crash-after:14' } });
  expect(crashed.signal, crashed.stderr).toBe('SIGKILL');
  return ws;
}

/** Move `.loop/.journal` onto a fresh tmpfs of `size` (mounted in the side folder, bound into place). */
function journalOnTmpfs(ws: Workspace, size: string): string {
  const fs = ws.side('fs');
  mkdirSync(fs, { recursive: true });
  expect(run('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', fs]), 'mount a tmpfs').toBe(true);
  mounts.push(fs);
  const journalDir = ws.abs('.loop/.journal');
  const onTmpfs = join(fs, 'journal');
  mkdirSync(journalDir, { recursive: true });
  cpSync(journalDir, onTmpfs, { recursive: true });
  for (const name of readdirSync(journalDir)) rmSync(join(journalDir, name), { recursive: true, force: true });
  expect(run('mount', ['--bind', onTmpfs, journalDir]), 'bind the tmpfs over .loop/.journal').toBe(true);
  mounts.push(journalDir);
  return fs;
}

/** Fill the file system at `dir` to the last block. */
function fill(dir: string): void {
  run('dd', ['if=/dev/zero', `of=${join(dir, 'filler')}`, 'bs=1k', 'count=100000']);
}

/** `yoke run` refuses: exit 3, one line on stderr naming `path` and matching `what`, no "unexpected error". */
async function expectRefused(ws: Workspace, path: string, what: RegExp): Promise<void> {
  const refused = await runYoke(ws, ['run', '--quiet']);
  expect(refused.exitCode, refused.stderr).toBe(3);
  expect(refused.stderr).not.toMatch(/unexpected error|report it/);
  // A full disk may also have cost the agent call's transcript, said on a warning line of its own before the refusal.
  const lines = refused.stderr.trim().split('\n').filter((line) => !/^yoke: warning: could not write transcript .*: ENOSPC/.test(line));
  expect(lines, refused.stderr).toHaveLength(1);
  expect(lines[0]).toContain(path);
  expect(lines[0]).toMatch(what);
  expect(lines[0]).toMatch(/then run the command again \(`yoke run` resumes/);
}

/** Once fixed, `yoke run` resumes the same run and finishes it. */
async function expectResumes(ws: Workspace): Promise<void> {
  const resumed = await runYoke(ws, ['run'], { timeoutMs: 60_000 });
  expect(resumed.exitCode, resumed.stderr).toBe(0);
  expect(`${resumed.stdout}\n${resumed.stderr}`).toMatch(/resuming run/);
  const records = await readJournal(ws);
  expect(records.filter((r) => r.type === 'run.started')).toHaveLength(1);
  expect(records.at(-1)?.type).toBe('run.finished');
}

describe('issue 20 item 4: journal faults from the environment were called yoke bugs', () => {
  it('EISDIR: journal.jsonl is a directory → exit 3 naming it; resumes once it is moved back', async () => {
    const ws = await crashedRun();
    const journal = journalPath(ws.path);
    renameSync(journal, ws.side('journal.jsonl'));
    mkdirSync(journal);
    await expectRefused(ws, journal, /is a directory where yoke needs a file.*move that directory out of the way/);
    rmSync(journal, { recursive: true });
    renameSync(ws.side('journal.jsonl'), journal);
    await expectResumes(ws);
  }, TIMEOUT);

  it('EPERM: journal.jsonl is immutable (chattr +i) → exit 3 naming it; resumes after chattr -i', async ({ skip }) => {
    skip(noChattr !== null, `cannot make a file immutable here (not root, or a file system without the flag): ${noChattr}`);
    const ws = await crashedRun();
    const journal = journalPath(ws.path);
    expect(run('chattr', ['+i', journal])).toBe(true);
    immutable.push(journal);
    await expectRefused(ws, journal, /may not be changed \(it is immutable.*chattr -i/);
    expect(run('chattr', ['-i', journal])).toBe(true);
    immutable.pop();
    await expectResumes(ws);
  }, TIMEOUT);

  it('ENOSPC before a run: the journal’s disk is full → exit 3 saying so; resumes once space is freed', async ({ skip }) => {
    skip(noTmpfs !== null, `this process may not mount a tmpfs (not root, or a container without CAP_SYS_ADMIN): ${noTmpfs}`);
    const ws = await crashedRun();
    const fs = journalOnTmpfs(ws, '256k');
    fill(fs);
    await expectRefused(ws, ws.abs('.loop/.journal'), /is full \(no space left on device\).*free some space/);
    rmSync(join(fs, 'filler'));
    await expectResumes(ws);
  }, TIMEOUT);

  it('ENOSPC during a run: the disk fills up while the agent works → exit 3 saying so; resumes once space is freed', async ({ skip }) => {
    skip(noTmpfs !== null, `this process may not mount a tmpfs (not root, or a container without CAP_SYS_ADMIN): ${noTmpfs}`);
    // the agent fills the file system the journal lives on (through a file outside the project)
    const ws = await workspace({ worker: [{ sh: 'dd if=/dev/zero of="$SIDE/fs/filler" bs=1k count=100000 2>/dev/null', notes: 'DONE' }], after: { worker: { notes: 'DONE' } } });
    const fs = journalOnTmpfs(ws, '256k');
    await expectRefused(ws, journalPath(ws.path), /is full \(no space left on device\).*free some space/);
    expect(existsSync(join(fs, 'filler'))).toBe(true);
    rmSync(join(fs, 'filler'));
    await expectResumes(ws);
  }, TIMEOUT);

  it('EROFS: the journal’s file system is mounted read-only → exit 3 saying so; resumes once it is read-write', async ({ skip }) => {
    skip(noTmpfs !== null, `this process may not mount a tmpfs (not root, or a container without CAP_SYS_ADMIN): ${noTmpfs}`);
    const ws = await crashedRun();
    journalOnTmpfs(ws, '1m');
    const journalDir = ws.abs('.loop/.journal');
    expect(run('mount', ['-o', 'remount,bind,ro', journalDir]), 'remount the journal read-only').toBe(true);
    await expectRefused(ws, journalDir, /is on a read-only file system.*remount it read-write/);
    expect(run('mount', ['-o', 'remount,bind,rw', journalDir])).toBe(true);
    await expectResumes(ws);
  }, TIMEOUT);
});
