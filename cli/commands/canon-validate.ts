// `yoke canon validate [dir]`: check a canon folder (frontmatter, manifest against folders,
// duplicate names); every problem as file:line, exit 1 when there is one.
import { existsSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { formatCanonIssue } from '../../machines/retrofit/canon-issue.js';
import { validateCanon } from '../../machines/retrofit/validate-canon.js';
import { readCanonFiles } from '../../effects/retrofit/read-canon-files.js';
import { YokeError } from '../../errors/yoke-error.js';
import { canonDir } from '../canon.js';

/** Exit 0 valid, 1 problems found, 2 no such folder. */
export async function canonValidateCommand(dir: string | undefined, flags: { json: boolean }): Promise<number> {
  const folder = resolve(dir ?? canonDir());
  if (!existsSync(folder)) throw new YokeError('usage', `${folder} does not exist; name a canon folder (one with manifest.yaml).`);
  const { canon, issues } = validateCanon(await readCanonFiles(folder));
  const shown = relative(process.cwd(), folder) || '.';
  if (flags.json) {
    process.stdout.write(`${JSON.stringify({ folder, valid: canon !== null, issues, skills: canon?.skills.map((skill) => skill.name) ?? [] })}\n`);
  } else if (canon !== null) {
    process.stdout.write(`${shown}: valid canon v${canon.version}: ${canon.skills.length} skills (${canon.skills.map((skill) => skill.name).join(', ')}), agents ${Object.keys(canon.agents).join(', ')}\n`);
  } else {
    for (const issue of issues) process.stderr.write(`${formatCanonIssue(issue, shown)}\n`);
    process.stderr.write(`yoke: ${shown} has ${issues.length} problem${issues.length === 1 ? '' : 's'}; fix them (docs/canon.md).\n`);
  }
  return canon === null ? 1 : 0;
}
