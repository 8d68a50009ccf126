// A scripted stand-in for a coding agent written in sh: it starts in a few milliseconds (the node
// fake agent takes ~0.3 s), so runs with many agent calls stay fast. The nth call of a role runs
// the nth step of that role's list; a step is a little shell script built from `ShellAct`s.
//
// Files in the workspace's side folder: `agent.sh` (the agent), `steps/<role>-<n>.sh` (1-based;
// `<role>-after.sh` serves calls past the list), `calls.log` (one line per call, appended before the
// step runs: `<role> <index> <iteration> <call key> <pid>`; it is also the counter, so a resumed yoke
// continues the sequence), `prompts/<role>-<n>.md` (the prompt of every call).
import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** What one step does, in key order. Paths are relative to the project root (the agent's cwd). */
export interface ShellAct {
  /** create or overwrite with exactly these bytes */
  write?: Record<string, string>;
  delete?: string[];
  /** `.loop/notes.md` = `STATUS: <status>\n<body>` (default body: `<role> call <n>`) */
  notes?: 'DONE' | 'IN_PROGRESS' | { status: string; body: string };
  /** copy a file to a side-folder name (`record: { '.loop/verdict.md': 'seen/verdict-2.md' }`); a missing file copies nothing */
  record?: Record<string, string>;
  /** JSON written to $YOKE_USAGE_FILE (as the agent reports usage) */
  usage?: Record<string, unknown>;
  /** any shell; `$SIDE` is the side folder */
  sh?: string;
  exitCode?: number;
}

export type ShellRole = 'worker' | 'judge' | 'scoper';

/** Per role, the steps of its 1st, 2nd, … call; `after` serves the calls past the list. */
export type ShellScript = Partial<Record<ShellRole, Array<ShellAct | ShellAct[]>>> & { after?: Partial<Record<ShellRole, ShellAct | ShellAct[]>> };

/** One line of the call log. */
export interface ShellCall {
  role: string;
  /** 0-based index among this role's calls */
  index: number;
  iteration: number;
  call: string;
  pid: number;
}

/** Single-quote for sh: every byte kept. */
export function shq(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

function actScript(act: ShellAct): string {
  const lines: string[] = [];
  for (const [name, value] of Object.entries(act) as Array<[keyof ShellAct, unknown]>) {
    switch (name) {
      case 'write':
        for (const [path, content] of Object.entries(value as Record<string, string>)) {
          lines.push(`mkdir -p "$(dirname ${shq(path)})"`, `printf '%s' ${shq(content)} > ${shq(path)}`);
        }
        break;
      case 'delete':
        for (const path of value as string[]) lines.push(`rm -rf ${shq(path)}`);
        break;
      case 'notes': {
        const notes = value as ShellAct['notes'];
        if (typeof notes === 'string') lines.push(`printf 'STATUS: %s\\n%s call %s\\n' ${shq(notes)} "$ROLE" "$N" > .loop/notes.md`);
        else if (notes) lines.push(`printf '%s' ${shq(`STATUS: ${notes.status}\n${notes.body}`)} > .loop/notes.md`);
        break;
      }
      case 'record':
        for (const [path, to] of Object.entries(value as Record<string, string>)) {
          lines.push(`mkdir -p "$(dirname "$SIDE"/${shq(to)})"`, `if [ -f ${shq(path)} ]; then cp ${shq(path)} "$SIDE"/${shq(to)}; fi`);
        }
        break;
      case 'usage':
        lines.push(`printf '%s' ${shq(JSON.stringify(value))} > "$YOKE_USAGE_FILE"`);
        break;
      case 'sh':
        lines.push(value as string);
        break;
      case 'exitCode':
        lines.push(`exit ${String(value)}`);
        break;
    }
  }
  return lines.join('\n');
}

/** The shell of one step. */
export function stepScript(step: ShellAct | ShellAct[]): string {
  return `${(Array.isArray(step) ? step : [step]).map(actScript).join('\n')}\n`;
}

function agentScript(side: string): string {
  return `#!/bin/sh
SIDE=${shq(side)}
ROLE="\${YOKE_ROLE:-worker}"
N=$(grep -c "^$ROLE " "$SIDE/calls.log" 2>/dev/null)
N=$((\${N:-0} + 1))
mkdir -p "$SIDE/prompts"
cat > "$SIDE/prompts/$ROLE-$N.md"
echo "$ROLE $((N - 1)) \${YOKE_ITERATION:-0} \${YOKE_CALL:-none} $$" >> "$SIDE/calls.log"
STEP="$SIDE/steps/$ROLE-$N.sh"
[ -f "$STEP" ] || STEP="$SIDE/steps/$ROLE-after.sh"
if [ -f "$STEP" ]; then . "$STEP"; fi
exit 0
`;
}

/** Write the agent and its steps into `side`; returns the `agent cmd …` line for yoke.conf. */
export async function installShellAgent(side: string, script: ShellScript): Promise<string> {
  await mkdir(join(side, 'steps'), { recursive: true });
  const agent = join(side, 'agent.sh');
  await writeFile(agent, agentScript(side));
  await chmod(agent, 0o755);
  await writeSteps(side, script);
  return `agent cmd sh ${agent}`;
}

/** (Re)write the step files of `script` (a resumed run may get new steps for calls still to come). */
export async function writeSteps(side: string, script: ShellScript): Promise<void> {
  await mkdir(join(side, 'steps'), { recursive: true });
  for (const role of ['worker', 'judge', 'scoper'] as const) {
    for (const [i, step] of (script[role] ?? []).entries()) await writeFile(join(side, 'steps', `${role}-${i + 1}.sh`), stepScript(step));
    const after = script.after?.[role];
    if (after) await writeFile(join(side, 'steps', `${role}-after.sh`), stepScript(after));
  }
}

/** The call log ([] before the first call). */
export async function shellCalls(side: string): Promise<ShellCall[]> {
  const file = join(side, 'calls.log');
  if (!existsSync(file)) return [];
  return (await readFile(file, 'utf8')).split('\n').filter((l) => l.trim() !== '').map((line) => {
    const [role = '', index = '0', iteration = '0', call = '', pid = '0'] = line.split(' ');
    return { role, index: Number(index), iteration: Number(iteration), call, pid: Number(pid) };
  });
}
