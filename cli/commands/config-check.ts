// `yoke config check`: validate .loop/yoke.conf and report every issue (nothing else happens).
import { formatIssue } from '../../config/format-issue.js';
import { checkConfig } from '../load-config.js';
import { findProject } from '../find-project.js';

/** Exit 0 when valid (warnings allowed), 2 when any error. */
export function configCheckCommand(flags: { json: boolean }): number {
  const paths = findProject(process.cwd());
  const { file, config, issues } = checkConfig(paths);
  const errors = issues.filter((issue) => issue.severity === 'error').length;
  if (flags.json) {
    process.stdout.write(`${JSON.stringify({ file, valid: config !== null, issues, config })}\n`);
  } else {
    for (const issue of issues) process.stderr.write(`${formatIssue(issue)}\n`);
    if (config) {
      const guards = config.guards.length + config.guardAfters.length;
      const agent = config.agent.kind === 'cmd' ? `cmd ${config.agent.command}` : config.agent.kind;
      process.stdout.write(`${file} is valid: mode ${config.mode}, agent ${agent}, ${guards} guard(s), at most ${config.maxIterations} iterations.\n`);
    } else {
      process.stderr.write(`${errors} error(s) in ${file}.\n`);
    }
  }
  return config ? 0 : 2;
}
