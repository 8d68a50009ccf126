// Reads the delivery-evidence directives (DESIGN §12): `artifact`, `journey` and `base-url`.
// Criterion names and the need for a base URL are checked once the whole file is read
// (validate-evidence.ts): an `accept` or `journey` may be declared after the artifact naming it.
import { setScalar } from './config-draft.js';
import { oneArgument, reportAt, reportMissing, twoArguments, type DirectiveContext } from './directive-context.js';
import { parseBaseUrl } from './parse-base-url.js';
import { parseProjectFile } from './parse-project-file.js';
import { checkName } from './read-command-directives.js';

/** At most this many `artifact` lines: each is hashed twice per check. */
export const MAX_ARTIFACTS = 32;
/** At most this many `journey` lines. */
export const MAX_JOURNEYS = 100;

/** `artifact <path> <criterion>…`: one file outside .loop/, bound to one or more criteria. */
export function readArtifact(ctx: DirectiveContext): void {
  const [pathToken, ...criteria] = ctx.line.tokens.slice(1);
  if (pathToken === undefined || criteria.length === 0) {
    reportMissing(ctx, pathToken === undefined ? 0 : 1);
    return;
  }
  const path = parseProjectFile(pathToken.text);
  if (!path.ok) {
    reportAt(ctx, pathToken, path);
    return;
  }
  if (path.value === '.loop' || path.value.startsWith('.loop/')) {
    reportAt(ctx, pathToken, { message: `\`${pathToken.text}\` is inside .loop/, yoke's workspace`, hint: 'bind a file your build produces, like dist/app.js' });
    return;
  }
  const earlier = ctx.draft.artifacts.find((artifact) => artifact.path === path.value);
  if (earlier !== undefined) {
    reportAt(ctx, pathToken, { message: `artifact \`${path.value}\` is already declared on line ${earlier.line}`, hint: 'list all its criteria on one line' });
    return;
  }
  if (ctx.draft.artifacts.length >= MAX_ARTIFACTS) {
    reportAt(ctx, pathToken, { message: `this is artifact number ${MAX_ARTIFACTS + 1}; a check binds at most ${MAX_ARTIFACTS}`, hint: 'bind the files that are delivered, or pack them into one archive' });
    return;
  }
  const repeated = criteria.find((token, index) => criteria.findIndex((other) => other.text === token.text) !== index);
  if (repeated !== undefined) {
    reportAt(ctx, repeated, { message: `criterion \`${repeated.text}\` is named twice`, hint: 'name each criterion once' });
    return;
  }
  ctx.draft.artifacts.push({
    path: path.value,
    criteria: criteria.map((token) => ({ value: token.text, line: ctx.line.number, column: token.column })),
    line: ctx.line.number,
  });
}

/** `journey <name> <flow.yaml>`: a browser flow; its name is a criterion name, shared with `accept`. */
export function readJourney(ctx: DirectiveContext): void {
  const args = twoArguments(ctx);
  if (args === null) return;
  const [name, flowToken] = args;
  if (!checkName(ctx, name)) return;
  const earlier = ctx.draft.journeys.find((journey) => journey.name === name.text);
  if (earlier !== undefined) {
    reportAt(ctx, name, { message: `journey name \`${name.text}\` is already used on line ${earlier.line}`, hint: 'give each journey its own name' });
    return;
  }
  const flow = parseProjectFile(flowToken.text);
  if (!flow.ok) {
    reportAt(ctx, flowToken, flow);
    return;
  }
  if (ctx.draft.journeys.length >= MAX_JOURNEYS) {
    reportAt(ctx, name, { message: `this is journey number ${MAX_JOURNEYS + 1}; a check runs at most ${MAX_JOURNEYS}`, hint: 'merge flows that share a page' });
    return;
  }
  ctx.draft.journeys.push({ name: name.text, flow: flow.value, line: ctx.line.number, column: name.column });
}

/** `base-url <url>`. */
export function readBaseUrl(ctx: DirectiveContext): void {
  const token = oneArgument(ctx);
  if (token === null) return;
  const url = parseBaseUrl(token.text);
  if (url.ok) setScalar(ctx.draft, 'baseUrl', url.value);
  else reportAt(ctx, token, url);
}
