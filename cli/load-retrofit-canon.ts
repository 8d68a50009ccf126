// The canon yoke ships (canon/ next to the package), read and validated for `yoke retrofit`.
import type { Canon } from '../machines/retrofit/canon.js';
import { formatCanonIssue } from '../machines/retrofit/canon-issue.js';
import { validateCanon } from '../machines/retrofit/validate-canon.js';
import { readCanonFiles } from '../effects/retrofit/read-canon-files.js';
import { YokeError } from '../errors/yoke-error.js';
import { canonDir } from './canon.js';

/** The shipped canon; an invalid one is a broken installation (exit 1, every issue listed). */
export async function loadRetrofitCanon(): Promise<Canon> {
  const dir = canonDir();
  const { canon, issues } = validateCanon(await readCanonFiles(dir));
  if (canon === null) throw new YokeError('effect', `the canon shipped with yoke (${dir}) is not valid; reinstall yoke or run \`yoke canon validate ${dir}\`.`, issues.map((issue) => formatCanonIssue(issue, dir)));
  return canon;
}
