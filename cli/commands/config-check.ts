// `yoke config check`: validate .loop/yoke.conf and report every issue, then whether the agent CLIs it uses are installed.
import { readFileSync } from 'node:fs';
import { formatIssue } from '../../config/format-issue.js';
import type { ConfigIssue } from '../../config/types.js';
import { checkAgentAvailability, type AgentAvailability } from '../../effects/adapters/agent-availability.js';
import { lifecycleNamed } from '../../machines/lifecycles/registry.js';
import { checkConfig } from '../load-config.js';
import { findProjectQuick } from '../find-project-quick.js';
import { loopFileReader } from '../loop-file-reader.js';
import { storyCheckIssuesOf } from '../story-check-issues.js';
import { protectListing, protectListingLines, type ProtectedPattern } from '../protect-listing.js';
import { projectFiles, unprotectedCheckFiles } from '../unprotected-check-files.js';
import { autoProtectStories } from '../../store/session/auto-protect-stories.js';
import { pendingOpencodeInstalls } from '../../effects/gate/opencode-dependency-installs.js';
import { gatedAgents, ungatedAgentIssue } from '../../config/tool-gate-reach.js';
import { hooksTurnedOff } from '../../effects/gate/hooks-turned-off.js';

/** Exit 0 when valid (warnings allowed) and every built-in agent CLI it uses is on PATH, 2 otherwise. */
export async function configCheckCommand(flags: { json: boolean }): Promise<number> {
  const paths = await findProjectQuick(process.cwd());
  const checked = checkConfig(paths);
  const { file, config } = checked;
  // Only the check command asks the file system about the commands' files (yoke run does not).
  const files = projectFiles(paths.root);
  // DESIGN §16: what `protect` (and `protect auto`) covers now; a command's file it covers needs no `no-modify`.
  const protection: { patterns: ProtectedPattern[]; issues: ConfigIssue[] } = config === null ? { patterns: [], issues: [] } : await protectListing(config, file, paths.root, files, autoProtectStories(paths, config));
  const unprotected = config === null ? [] : unprotectedCheckFiles(config, checked.text, file, paths.root, files, protection.patterns.map((entry) => entry.pattern));
  const lifecycle = config ? lifecycleNamed(config.mode) : undefined;
  // The lifecycle's own files (stories: prd.yaml) are validated as `yoke run` validates them.
  // ...and so are its stories' `journey:` checks (a declared journey; none with `parallel`)
  const lifecycleIssues = [...(lifecycle?.validate?.(loopFileReader(paths)) ?? []), ...(config === null ? [] : storyCheckIssuesOf(config, paths))];
  // DESIGN §13: an agent the tool-call gate does not reach, with tool control on, is refused by `yoke run`
  const reach = config === null ? null : ungatedAgentIssue(config, checked.text, file);
  // … and so is one whose CLI settings switch its hooks off (the gate would never be asked)
  const hooksOff = config === null ? [] : gatedAgents(config).flatMap((agent) => hooksOffIssue(agent, paths.root, config.toolControl ?? 'on'));
  const issues = [...checked.issues, ...unprotected, ...protection.issues, ...(reach === null ? [] : [reach]), ...hooksOff].sort((a, b) => a.line - b.line || a.column - b.column).concat(lifecycleIssues);
  const errors = issues.filter((issue) => issue.severity === 'error').length;
  const valid = config !== null && errors === 0;
  const agents: AgentAvailability[] = config && lifecycle ? await checkAgentAvailability(config, lifecycle.rolesCalled(config)) : [];
  const missing = agents.filter((agent) => !agent.found);
  const warnings = config !== null && (config.toolControl ?? 'on') !== 'off' && agents.some((agent) => agent.kind === 'opencode' && agent.found) ? opencodeInstallWarnings(paths.root) : [];
  if (flags.json) {
    process.stdout.write(`${JSON.stringify({ file, valid, issues, config, agents, protected: protection.patterns, warnings })}\n`);
  } else {
    for (const issue of issues) process.stderr.write(`${formatIssue(issue)}\n`);
    if (config && valid) {
      const guards = config.guards.length + config.guardAfters.length;
      const agent = config.agent.kind === 'cmd' ? `cmd ${config.agent.command}` : config.agent.kind;
      process.stdout.write(`${file} is valid: mode ${config.mode}, agent ${agent}, ${guards} guard(s), at most ${config.maxIterations} iterations.\n`);
      for (const line of protectListingLines(protection.patterns)) process.stdout.write(`${line}\n`);
      for (const found of agents.filter((entry) => entry.found)) process.stdout.write(`${found.message}\n`);
      for (const absent of missing) process.stderr.write(`yoke: ${absent.message}.\n`);
      for (const warning of warnings) process.stderr.write(`yoke: warning: ${warning}\n`);
    } else {
      const where = [...new Set(issues.filter((issue) => issue.severity === 'error').map((issue) => issue.file))];
      process.stderr.write(`${errors} error(s) in ${where.length > 0 ? where.join(' and ') : file}.\n`);
    }
  }
  return valid && missing.length === 0 ? 0 : 2;
}

/** OpenCode's own dependency installs that a gated opencode call would wait for (effects/gate/opencode-dependency-installs.ts). */
function opencodeInstallWarnings(root: string): string[] {
  const dirs = pendingOpencodeInstalls(root, process.env);
  if (dirs.length === 0) return [];
  return [`OpenCode will install @opencode-ai/plugin from npm into ${dirs.join(', ')} before an opencode call, which loads yoke's tool-call plugin, and wait for it: once with network; without network every call waits about 70 s and then goes on. Run \`opencode\` once with network access, or see docs/agents.md.`];
}

/** The setting that switches `agent`'s hooks off, as an issue at its line in its settings file (none: no issue). */
function hooksOffIssue(agent: string, root: string, setting: string): ConfigIssue[] {
  const off = hooksTurnedOff(agent, root, process.env);
  if (off === null) return [];
  let line = 1;
  try {
    const key = /[A-Za-z_]+/.exec(off.setting.replace(/^\[features\] /, ''))?.[0] ?? '';
    line = readFileSync(off.file, 'utf8').split('\n').findIndex((text) => text.includes(key)) + 1 || 1;
  } catch {
    // the line is a courtesy: the file was read a moment ago
  }
  return [{
    file: off.file, line, column: 1, severity: 'error',
    message: `${off.setting}: ${off.effect}, so yoke could not rule on ${agent}'s tool calls (tool-control is ${setting}), and \`yoke run\` refuses to run it`,
    hint: 'remove that setting, or write `tool-control off` in .loop/yoke.conf; see docs/tool-control.md',
  }];
}
