// Reads the path of one project file (`artifact`, `journey` flow) into its normal project-relative
// form: `./dist//app.js` becomes `dist/app.js`. A path that could name something outside the
// project, a folder, or many files is refused here, before anything runs.
import { parsed, rejected, type ParsedValue } from './parsed-value.js';

/** The normalized path, or why it cannot name one file inside the project (absolute, `~`, `..`, glob, folder). */
export function parseProjectFile(text: string): ParsedValue<string> {
  const hint = 'write the path of one file relative to the project root, like dist/app.js';
  if (text.startsWith('/') || /^[A-Za-z]:[\\/]/.test(text)) return rejected(`\`${text}\` is an absolute path`, hint);
  if (text.startsWith('~')) return rejected(`\`${text}\` starts with \`~\`, which is not expanded`, hint);
  if (/[*?[\]]/.test(text)) return rejected(`\`${text}\` contains a glob character, but this names one file`, hint);
  if (text.includes('\\')) return rejected(`\`${text}\` contains \`\\\``, 'separate folders with `/`');
  const segments = text.split('/').filter((segment) => segment !== '' && segment !== '.');
  if (segments.includes('..')) return rejected(`\`${text}\` contains a \`..\` segment, which could leave the project`, hint);
  if (segments.length === 0 || /\/\.?$/.test(text)) return rejected(`\`${text}\` names a folder, not a file`, hint);
  return parsed(segments.join('/'));
}
