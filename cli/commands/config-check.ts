// `yoke config check`: validate .loop/yoke.conf and report every issue, then whether the agent CLIs it uses are installed.
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
import { ungatedAgentIssue } from '../../config/tool-gate-reach.js';
import { autoProtectStories } from '../../store/session/auto-protect-stories.js';

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
  const issues = [...checked.issues, ...unprotected, ...protection.issues, ...(reach === null ? [] : [reach])].sort((a, b) => a.line - b.line || a.column - b.column).concat(lifecycleIssues);
  const errors = issues.filter((issue) => issue.severity === 'error').length;
  const valid = config !== null && errors === 0;
  const agents: AgentAvailability[] = config && lifecycle ? await checkAgentAvailability(config, lifecycle.rolesCalled(config)) : [];
  const missing = agents.filter((agent) => !agent.found);
  if (flags.json) {
    process.stdout.write(`${JSON.stringify({ file, valid, issues, config, agents, protected: protection.patterns })}\n`);
  } else {
    for (const issue of issues) process.stderr.write(`${formatIssue(issue)}\n`);
    if (config && valid) {
      const guards = config.guards.length + config.guardAfters.length;
      const agent = config.agent.kind === 'cmd' ? `cmd ${config.agent.command}` : config.agent.kind;
      process.stdout.write(`${file} is valid: mode ${config.mode}, agent ${agent}, ${guards} guard(s), at most ${config.maxIterations} iterations.\n`);
      for (const line of protectListingLines(protection.patterns)) process.stdout.write(`${line}\n`);
      for (const found of agents.filter((entry) => entry.found)) process.stdout.write(`${found.message}\n`);
      for (const absent of missing) process.stderr.write(`yoke: ${absent.message}.\n`);
    } else {
      const where = [...new Set(issues.filter((issue) => issue.severity === 'error').map((issue) => issue.file))];
      process.stderr.write(`${errors} error(s) in ${where.length > 0 ? where.join(' and ') : file}.\n`);
    }
  }
  return valid && missing.length === 0 ? 0 : 2;
}
