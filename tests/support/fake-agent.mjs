#!/usr/bin/env node
// A scripted stand-in for a coding agent, used by the end-to-end tests as `agent cmd node <this>`.
//
// Environment:
//   FAKE_AGENT_SCRIPT  JSON file with the script (below); required.
//   FAKE_AGENT_LOG     JSON Lines file; one line is appended per call (the call log).
//   YOKE_ITERATION, YOKE_ROLE, YOKE_CALL, YOKE_RUN, YOKE_LOOP_DIR, YOKE_USAGE_FILE  set by yoke.
//
// Script: { "default"?: Step, "steps"?: { "<iteration>": Step }, "roles"?: { "<role>": Script } }
//   A call by role R in iteration N uses roles[R] (when present) instead of the top-level script,
//   then steps["N"], else default, else no actions.
// Step: an object of actions, or an array of such objects (run one after another). Within one
//   object the actions run in key order. Relative paths resolve against the cwd (project root).
//   write:       { "<path>": "<content>" }      create or overwrite (parent folders are created)
//   append:      { "<path>": "<content>" }
//   delete:      ["<path>", ...]                 missing paths are ignored
//   notes:       "DONE" | "IN_PROGRESS" | { status, body }   writes .loop/notes.md
//   recordFile:  { path, to } | [{ path, to }]   copy a file's content to `to`; a missing file
//                                                writes nothing and removes a stale `to`
//   recordPrompt: "<path>"                       write the prompt read from stdin
//   usage:       { ... }                         JSON written to $YOKE_USAGE_FILE
//   stdout / stderr: "<text>"
//   sleepMs:     <n>
//   spawnGrandchild: true                        `sleep 1000` in this process group; its pid is
//                                                written to "<FAKE_AGENT_LOG>.grandchild"
//   hang:        true                            sleep forever, silently
//   exitCode:    <n>                             the exit code once all actions ran
import { Buffer } from 'node:buffer';
import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import process from 'node:process';
import { setInterval } from 'node:timers';
import { setTimeout as sleep } from 'node:timers/promises';

const env = process.env;

function fail(message) {
  process.stderr.write(`fake-agent: ${message}\n`);
  process.exit(99);
}

function writeFile(path, content) {
  const target = resolve(path);
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, content);
}

async function readStdin() {
  if (process.stdin.isTTY) return '';
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}

function pickStep(script, role, iteration) {
  const scoped = script.roles?.[role] ?? script;
  return scoped.steps?.[String(iteration)] ?? scoped.default ?? {};
}

function loopDir() {
  return env.YOKE_LOOP_DIR ?? join(process.cwd(), '.loop');
}

function asList(value) {
  return Array.isArray(value) ? value : [value];
}

async function runAction(name, value, context) {
  switch (name) {
    case 'write':
      for (const [path, content] of Object.entries(value)) writeFile(path, content);
      return;
    case 'append':
      for (const [path, content] of Object.entries(value)) {
        mkdirSync(dirname(resolve(path)), { recursive: true });
        appendFileSync(resolve(path), content);
      }
      return;
    case 'delete':
      for (const path of asList(value)) rmSync(resolve(path), { recursive: true, force: true });
      return;
    case 'notes': {
      const { status, body } = typeof value === 'string' ? { status: value } : value;
      const text = body ?? `Fake agent notes from iteration ${context.iteration}.\n`;
      writeFile(join(loopDir(), 'notes.md'), `STATUS: ${status}\n${text}`);
      return;
    }
    case 'recordFile':
      for (const { path, to } of asList(value)) {
        if (existsSync(resolve(path))) writeFile(to, readFileSync(resolve(path)));
        else rmSync(resolve(to), { force: true });
      }
      return;
    case 'recordPrompt':
      writeFile(value, context.prompt);
      return;
    case 'usage':
      if (!env.YOKE_USAGE_FILE) fail('usage requested but YOKE_USAGE_FILE is not set');
      writeFileSync(env.YOKE_USAGE_FILE, JSON.stringify(value));
      return;
    case 'stdout':
      process.stdout.write(value);
      return;
    case 'stderr':
      process.stderr.write(value);
      return;
    case 'sleepMs':
      await sleep(value);
      return;
    case 'spawnGrandchild': {
      if (!value) return;
      const child = spawn('sleep', ['1000'], { stdio: 'ignore', detached: false });
      child.unref();
      if (env.FAKE_AGENT_LOG) appendFileSync(`${env.FAKE_AGENT_LOG}.grandchild`, `${child.pid}\n`);
      return;
    }
    case 'hang':
      if (!value) return;
      setInterval(() => undefined, 1 << 30);
      await new Promise(() => undefined);
      return;
    case 'exitCode':
      context.exitCode = value;
      return;
    default:
      fail(`unknown action "${name}"`);
  }
}

async function main() {
  const scriptPath = env.FAKE_AGENT_SCRIPT;
  if (!scriptPath) fail('FAKE_AGENT_SCRIPT is not set');
  const script = JSON.parse(readFileSync(scriptPath, 'utf8'));
  const iteration = Number(env.YOKE_ITERATION ?? '0');
  const role = env.YOKE_ROLE ?? 'worker';
  const prompt = await readStdin();
  if (env.FAKE_AGENT_LOG) {
    const entry = {
      call: env.YOKE_CALL ?? null,
      role,
      iteration,
      run: env.YOKE_RUN ?? null,
      pid: process.pid,
      loopDir: env.YOKE_LOOP_DIR ?? null,
      usageFile: env.YOKE_USAGE_FILE ?? null,
      promptBytes: Buffer.byteLength(prompt),
    };
    appendFileSync(env.FAKE_AGENT_LOG, `${JSON.stringify(entry)}\n`);
  }
  const context = { iteration, prompt, exitCode: 0 };
  for (const actions of asList(pickStep(script, role, iteration))) {
    for (const [name, value] of Object.entries(actions)) await runAction(name, value, context);
  }
  process.exitCode = context.exitCode;
}

await main();
