// The run's tool-call gate as the runner drives it: the gate server with the run's config and
// journal, and the hook command that reaches it (this very yoke, `gate --agent <name>`).
import { homedir } from 'node:os';
import type { Config } from '../../config/types.js';
import { shellQuote } from '../../effects/adapters/shell-quote.js';
import type { RunToolGate } from '../fold/runner.js';
import type { JournalWriter } from '../journal/journal-writer.js';
import type { JournalRecord, RecordDraft } from '../journal/record.js';
import { journalEntry } from '../../config/workspace-layout.js';
import { trackedFiles } from '../../effects/git/tracked-files.js';
import { unruledCalls } from '../../policy/gate/unruled-calls.js';
import { openGateServer } from './gate-server.js';
import { callRulings } from './tool-records.js';
import { newGateToken, removeGatePointer, writeGatePointer } from './gate-pointer.js';

/** What opening a run's gate needs. */
export interface RunGateOptions {
  run: string;
  root: string;
  /** the workspace's `.loop/` (where the gate pointer for `yoke answer` goes) */
  loopDir: string;
  config: Config;
  /** the `protect` patterns in force (the run's protection baseline; none without one) */
  protect: () => readonly string[];
  journal: JournalWriter;
  /** the hook command's program and leading arguments (default: this node and this yoke's entry file) */
  yoke?: readonly string[];
}

/** Opens the gate; `host` is the runner's staging (records go into the run's fold and journal). */
export async function openRunToolGate(
  options: RunGateOptions,
  host: { stage: (draft: Omit<RecordDraft, 'run' | 'machine' | 'mv'>) => JournalRecord; flush: () => Promise<void> },
): Promise<RunToolGate> {
  const token = newGateToken();
  const server = await openGateServer({
    run: options.run,
    root: options.root,
    home: homedir(),
    config: options.config,
    protect: options.protect,
    // `git ls-files` once per agent call, in the tree it works in: what the agent deletes or empties is judged against it
    tracked: ({ key, root }) => {
      const lane = laneListed.get(key);
      if (lane !== undefined) return lane.files ??= trackedFiles(root);
      if (listed?.call !== key) listed = { call: key, files: trackedFiles(root) };
      return listed.files;
    },
    stage: host.stage,
    // an answer to a hold of this run goes through the run's staging (its fold, `--json`); one of an earlier run as drafted
    stageOperator: (draft) => {
      if (draft.run !== options.run) return options.journal.stage(draft);
      const { run: _run, machine: _machine, mv: _mv, ...rest } = draft;
      return host.stage(rest);
    },
    flush: host.flush,
    records: () => options.journal.records,
    token,
  });
  const pointer = journalEntry(options.loopDir, 'gate');
  try {
    writeGatePointer(pointer, options.run, server.socketPath, token);
  } catch (error) {
    await server.close();
    throw error;
  }
  const yoke = options.yoke ?? [process.execPath, process.argv[1] ?? 'yoke'];
  let call: string | null = null;
  let listed: { call: string; files: Promise<string[] | null> } | null = null;
  // the agent calls with a socket of their own (parallel lanes'), and their tracked lists once read
  const laneListed = new Map<string, { files?: Promise<string[] | null> }>();
  const command = (agent: string): string => [...yoke, 'gate', '--agent', agent].map(shellQuote).join(' ');
  return {
    setCall: (key) => {
      call = key;
      server.setCall(key);
    },
    link: {
      socketPath: server.socketPath,
      command,
      heldInCall: (answeredToo) => server.heldInCall(answeredToo),
      unruled: (executed) => unruledCalls(executed, call === null ? [] : callRulings(options.journal.records, call)),
    },
    openCall: async (key, root) => {
      const opened = await server.openCall(key, root);
      laneListed.set(key, {});
      return {
        link: {
          socketPath: opened.socketPath,
          command,
          heldInCall: (answeredToo) => opened.heldInCall(answeredToo),
          unruled: (executed) => unruledCalls(executed, callRulings(options.journal.records, key)),
        },
        close: async () => {
          await opened.close();
          laneListed.delete(key);
        },
      };
    },
    close: async () => {
      removeGatePointer(pointer);
      await server.close();
    },
  };
}
