// The malformed-config corpus: each text has exactly `errors` errors (default 1), one of them at `line`:`column`.

/** One malformed config and where its error must point. */
export interface MalformedCase {
  name: string;
  text: string;
  line: number;
  column: number;
  /** A fragment the message or hint must contain. */
  says?: string;
  errors?: number;
}

const LOOP = 'mode loop\nagent claude\n';
const BRUTE = 'mode brute\nagent claude\n';
const SAGA = 'mode saga\nagent claude\n';
const GOAL = 'mode goal\nagent claude\naccept tests npm test\n';

function bad(name: string, text: string, line: number, column: number, says?: string, errors?: number): MalformedCase {
  return { name, text, line, column, ...(says === undefined ? {} : { says }), ...(errors === undefined ? {} : { errors }) };
}

export const MALFORMED_CONFIGS: MalformedCase[] = [
  // unknown directives and typos
  bad('unknown directive', `${LOOP}frobnicate 3`, 3, 1, 'not a yoke.conf directive'),
  bad('typo suggests max-iterations', `${LOOP}max-iteration 5`, 3, 1, 'did you mean `max-iterations`?'),
  bad('typo suggests guard', `${LOOP}gaurd tests npm test`, 3, 1, 'did you mean `guard`?'),
  bad('directives are lower case', `${LOOP}  MAX-ITERATIONS 5`, 3, 3, 'did you mean `max-iterations`?'),
  bad('comment glued to a word is part of it', `${LOOP}max-iterations 5#five`, 3, 16, '`5#five`'),
  // whole numbers
  bad('zero iterations', `${LOOP}max-iterations 0`, 3, 16, 'use 1 or more'),
  bad('negative iterations', `${LOOP}max-iterations -1`, 3, 16, 'negative'),
  bad('fractional iterations', `${LOOP}max-iterations 1.5`, 3, 16),
  bad('exponent iterations', `${LOOP}max-iterations 1e3`, 3, 16),
  bad('plus sign', `${LOOP}max-iterations +3`, 3, 16),
  bad('hex number', `${LOOP}max-iterations 0x10`, 3, 16),
  bad('trailing garbage', `${LOOP}max-iterations 10abc`, 3, 16),
  bad('leading zero', `${LOOP}max-iterations 010`, 3, 16),
  bad('number too large', `${LOOP}max-iterations 99999999999999999999`, 3, 16, 'too large'),
  bad('missing number', `${LOOP}max-iterations`, 3, 15, 'missing its number'),
  bad('zero context budget', `${LOOP}context-budget 0`, 3, 16, 'like 8000'),
  bad('context budget not a number', `${LOOP}context-budget lots`, 3, 16, 'like 8000'),
  bad('context budget twice', `${LOOP}context-budget 100\ncontext-budget 200`, 4, 1),
  bad('extra number', `${LOOP}max-iterations 5 6`, 3, 18, '`6` follows'),
  bad('zero judge cadence', `${BRUTE}judge-every 0`, 3, 13),
  bad('word as judge failures', `${BRUTE}max-judge-failures three`, 3, 20),
  bad('negative chunks', `${SAGA}max-chunks -2`, 3, 12),
  bad('zero periodic cadence', `${LOOP}periodic lint 0 npm run lint`, 3, 15),
  bad('periodic cadence written as every-3', `${LOOP}periodic lint every-3 npm run lint`, 3, 15),
  // durations
  bad('duration without unit', `${LOOP}idle-timeout 90`, 3, 14, 'add a unit'),
  bad('fractional duration', `${LOOP}idle-timeout 1.5h`, 3, 14, 'like 90s, 20m or 2h'),
  bad('unknown duration unit', `${LOOP}idle-timeout 20x`, 3, 14),
  bad('milliseconds are not a unit', `${LOOP}guard-timeout 10ms`, 3, 15),
  bad('negative duration', `${LOOP}guard-timeout -5m`, 3, 15),
  bad('missing duration', `${LOOP}idle-timeout`, 3, 13, 'missing its duration'),
  // missing arguments and commands
  bad('guard without name', `${LOOP}guard`, 3, 6, 'missing its name'),
  bad('guard without command', `${LOOP}guard tests`, 3, 12, 'missing its command'),
  bad('guard whose command is a comment', `${LOOP}guard tests   # npm test`, 3, 12, 'missing its command'),
  bad('periodic without command', `${LOOP}periodic lint 3`, 3, 16, 'missing its command'),
  bad('periodic without cadence', `${LOOP}periodic lint`, 3, 14, 'missing its every-N'),
  bad('guard-after without command', `${LOOP}periodic p 2 x\nguard-after p g`, 4, 16, 'missing its command'),
  bad('hook without command', `${LOOP}hook done`, 3, 10, 'missing its command'),
  bad('model without name', `${LOOP}model`, 3, 6, 'missing its model name'),
  bad('model with two words', `${LOOP}model a b`, 3, 9),
  bad('allow without path', `${LOOP}allow`, 3, 6, 'missing its path prefix'),
  bad('allow with two paths', `${LOOP}allow a/ b/`, 3, 10),
  // names
  bad('slash in guard name', `${LOOP}guard bad/name npm test`, 3, 7, 'not a valid name'),
  bad('guard name starting with a dash', `${LOOP}guard -x npm test`, 3, 7),
  bad('duplicate guard name', `${LOOP}guard t npm test\nguard t npm run lint`, 4, 7, 'already used on line 3'),
  bad('guard-after reuses a guard name', `${LOOP}periodic p 2 x\nguard t a\nguard-after p t b`, 5, 15, 'line 4'),
  bad('duplicate periodic name', `${LOOP}periodic p 2 a\nperiodic p 3 b`, 4, 10, 'line 3'),
  bad('5.4 guard-after requires its periodic', `${LOOP}guard-after lint lint-ok ./check.sh`, 3, 13, 'not declared'),
  bad('guard-after periodic typo', `${LOOP}periodic lint 3 x\nguard-after lnt ok y`, 4, 13, 'did you mean `lint`?'),
  bad('duplicate accept name', `${GOAL}accept tests npm run e2e`, 4, 8, 'line 3'),
  // duplicate single-value directives
  bad('duplicate mode', `${LOOP}mode brute`, 3, 1, 'already set on line 1'),
  bad('duplicate agent', `${LOOP}agent codex`, 3, 1, 'line 2'),
  bad('duplicate max-iterations', `${LOOP}max-iterations 5\nmax-iterations 6`, 4, 1, 'line 3'),
  bad('duplicate commit', `${LOOP}commit off\ncommit each`, 4, 1),
  bad('duplicate idle-timeout', `${LOOP}idle-timeout 5m\nidle-timeout 6m`, 4, 1),
  bad('duplicate model', `${LOOP}model a\nmodel b`, 4, 1),
  // mode and agent values
  bad('wrong mode value', 'mode lop\nagent claude', 1, 6, 'did you mean `loop`?'),
  bad('mode without value', 'mode\nagent claude', 1, 5, 'missing its mode'),
  bad('mode with two values', 'mode loop brute\nagent claude', 1, 11),
  bad('unknown agent', 'mode loop\nagent gpt', 2, 7, 'not a known agent'),
  bad('agent typo', 'mode loop\nagent cladue', 2, 7, 'did you mean `claude`?'),
  bad('agent cmd without command', 'mode loop\nagent cmd', 2, 10, 'missing its command'),
  bad('built-in agent with arguments', 'mode loop\nagent claude --fast', 2, 14),
  bad('agent without kind', 'mode loop\nagent', 2, 6),
  bad('unknown judge agent', `${BRUTE}judge-agent codx`, 3, 13, 'did you mean `codex`?'),
  // hooks, commit, budgets
  bad('unknown hook event', `${LOOP}hook finish echo hi`, 3, 6, 'not a hook event'),
  bad('unknown commit setting', `${LOOP}commit sometimes`, 3, 8),
  bad('unknown budget dimension', `${LOOP}budget dollars 5`, 3, 8, 'not a budget dimension'),
  bad('zero tokens', `${LOOP}budget tokens 0`, 3, 15),
  bad('fractional tokens', `${LOOP}budget tokens 1.5`, 3, 15),
  bad('lower-case m is not millions', `${LOOP}budget tokens 5m`, 3, 15, '2M'),
  bad('fractional attempts', `${LOOP}budget attempts 2.5`, 3, 17),
  // agent-timeout and price
  bad('agent-timeout without unit', `${LOOP}agent-timeout 90`, 3, 15, 'add a unit'),
  bad('agent-timeout missing duration', `${LOOP}agent-timeout`, 3, 14, 'missing its duration'),
  bad('duplicate agent-timeout', `${LOOP}agent-timeout 1h\nagent-timeout 2h`, 4, 1, 'line 3'),
  bad('price without prices', `${LOOP}price gpt-5.5`, 3, 14, 'missing its input price'),
  bad('price without output price', `${LOOP}price gpt-5.5 1.25`, 3, 19, 'missing its output price'),
  bad('price without model', `${LOOP}price`, 3, 6, 'missing its model name'),
  bad('price with a fourth word', `${LOOP}price m 1 2 3`, 3, 13, '`3` follows'),
  bad('negative price', `${LOOP}price m -1 2`, 3, 9, 'without sign'),
  bad('price with a currency sign', `${LOOP}price m 1 $2`, 3, 11, 'US dollars per million output tokens'),
  bad('price with an exponent', `${LOOP}price m 1e3 2`, 3, 9),
  bad('rate-limit-wait of zero', `${LOOP}rate-limit-wait 0`, 3, 17, 'cannot be 0'),
  bad('rate-limit-wait without unit', `${LOOP}rate-limit-wait 30`, 3, 17, 'add a unit'),
  bad('duplicate rate-limit-wait', `${LOOP}rate-limit-wait 30s\nrate-limit-wait 1m`, 4, 1, 'line 3'),
  bad('duplicate price names both lines', `${LOOP}price m 1 2\nprice m 3 4`, 4, 7, 'already set on line 3'),
  bad('zero cost', `${LOOP}budget cost-usd 0`, 3, 17, 'greater than 0'),
  bad('currency sign', `${LOOP}budget cost-usd $5`, 3, 17),
  bad('negative minutes', `${LOOP}budget minutes -3`, 3, 16),
  bad('exponent wall-minutes', `${LOOP}budget wall-minutes 1e2`, 3, 21),
  bad('budget without value', `${LOOP}budget tokens`, 3, 14, 'missing its value'),
  bad('duplicate budget dimension', `${LOOP}budget tokens 1M\nbudget tokens 2M`, 4, 8, 'line 3'),
  // tool-call control
  bad('unknown tool class', `${LOOP}tool shell pass`, 3, 6, 'not a tool class'),
  bad('tool class typo suggests the class', `${LOOP}tool netwrok hold`, 3, 6, 'did you mean `network`?'),
  bad('unknown tool ruling', `${LOOP}tool network allow`, 3, 14, 'not a tool ruling'),
  bad('tool ruling typo suggests the ruling', `${LOOP}tool exec refuze`, 3, 11, 'did you mean `refuse`?'),
  bad('tool without ruling', `${LOOP}tool network`, 3, 13, 'missing its ruling'),
  bad('tool without class', `${LOOP}tool`, 3, 5, 'missing its class'),
  bad('tool with a third word', `${LOOP}tool network hold now`, 3, 19, '`now` follows'),
  bad('tool class is lower case', `${LOOP}tool Network hold`, 3, 6),
  bad('duplicate tool row for one class', `${LOOP}tool network hold\ntool network pass`, 4, 6, 'already set on line 3'),
  bad('duplicate tool row even with the same ruling', `${LOOP}tool secret refuse\ntool exec pass\ntool secret refuse`, 5, 6, 'lines 3 and 5'),
  bad('unknown tool-control setting', `${LOOP}tool-control yes`, 3, 14, 'not a tool-control setting'),
  bad('tool-control typo', `${LOOP}tool-control advisry`, 3, 14, 'did you mean `advisory`?'),
  bad('tool-control without setting', `${LOOP}tool-control`, 3, 13, 'missing its setting'),
  bad('duplicate tool-control', `${LOOP}tool-control on\ntool-control off`, 4, 1, 'already set on line 3'),
  // boundary paths
  bad('absolute path', `${LOOP}allow /etc`, 3, 7, 'absolute'),
  bad('parent segment', `${LOOP}allow ../x`, 3, 7, '..'),
  bad('inner parent segment', `${LOOP}no-modify src/../x`, 3, 11),
  bad('path into .loop', `${LOOP}no-modify .loop/plan.md`, 3, 11, '.loop/'),
  bad('home path', `${LOOP}allow ~/x`, 3, 7),
  bad('whole project', `${LOOP}allow ./`, 3, 7, 'whole project'),
  bad('glob', `${LOOP}allow src/*.ts`, 3, 7, 'not globs'),
  bad('allow and no-modify conflict', `${LOOP}allow src/\nno-modify ./src/`, 4, 11, 'line 3'),
  // delivery evidence (DESIGN §12)
  bad('artifact naming an unknown criterion', `${GOAL}artifact dist/app.js tests smoke`, 4, 28, 'criterion `smoke`, which is not declared'),
  bad('artifact criterion typo', `${GOAL}artifact dist/app.js tets`, 4, 22, 'did you mean `tests`?'),
  bad('artifact without criteria', `${GOAL}artifact dist/app.js`, 4, 21, 'missing its criterion'),
  bad('artifact without a path', `${GOAL}artifact`, 4, 9, 'missing its path'),
  bad('artifact escaping the project', `${GOAL}artifact ../app.js tests`, 4, 10, '`..`'),
  bad('artifact at an absolute path', `${GOAL}artifact /tmp/app.js tests`, 4, 10, 'absolute'),
  bad('artifact that is a folder', `${GOAL}artifact dist/ tests`, 4, 10, 'names a folder'),
  bad('artifact glob', `${GOAL}artifact dist/*.js tests`, 4, 10, 'glob'),
  bad('artifact inside .loop', `${GOAL}artifact .loop/notes.md tests`, 4, 10, '.loop/'),
  bad('artifact declared twice', `${GOAL}artifact a.zip tests\nartifact ./a.zip tests`, 5, 10, 'already declared on line 4'),
  bad('artifact naming a criterion twice', `${GOAL}artifact a.zip tests tests`, 4, 22, 'named twice'),
  bad('too many artifacts', `${GOAL}${Array.from({ length: 33 }, (_, i) => `artifact a${i}.zip tests`).join('\n')}`, 36, 10, 'at most 32'),
  bad('journey without base-url', `${GOAL}journey smoke smoke.yaml`, 4, 1, 'needs a `base-url`'),
  bad('journey without flow file', `${GOAL}journey smoke\nbase-url http://x`, 4, 14, 'missing its flow file'),
  bad('journey flow escaping the project', `${GOAL}journey smoke ../smoke.yaml\nbase-url http://x`, 4, 15, '`..`'),
  bad('journey named like an accept', `${GOAL}journey tests t.yaml\nbase-url http://x`, 4, 9, 'already used by `accept` on line 3'),
  bad('duplicate journey name', `${GOAL}journey j a.yaml\njourney j b.yaml\nbase-url http://x`, 5, 9, 'already used on line 4'),
  bad('slash in journey name', `${GOAL}journey a/b a.yaml\nbase-url http://x`, 4, 9, 'not a valid name'),
  bad('base-url that is no URL', `${LOOP}base-url localhost:3000`, 3, 10, 'not an http or https address'),
  bad('base-url with another scheme', `${LOOP}base-url file:///tmp/x`, 3, 10, 'not an http or https'),
  bad('base-url with credentials', `${LOOP}base-url http://me:pw@localhost`, 3, 10, 'credentials'),
  bad('base-url with a query', `${LOOP}base-url http://localhost/?a=1`, 3, 10, 'query'),
  bad('duplicate base-url', `${LOOP}base-url http://a\nbase-url http://b`, 4, 1, 'line 3'),
  // required directives
  bad('missing mode', 'agent claude', 1, 1, 'add `mode loop`'),
  bad('missing agent', '# config\nmode loop', 1, 1, 'no `agent` line'),
  bad('empty file', '', 1, 1, 'no `mode` line', 2),
  bad('missing accept in goal', 'mode goal\nagent claude', 1, 1, 'accept'),
  bad('accept without command', 'mode goal\nagent claude\naccept t', 3, 9, 'missing its command'),
  bad('redact with a $', `${LOOP}redact $DATABASE_URL`, 3, 8, 'without `$`'),
  bad('redact without a name', `${LOOP}redact`, 3, 7, 'missing its variable name'),
  bad('redact with two names', `${LOOP}redact A B`, 3, 10, '`B` follows'),
  // issue 20.5: a NUL byte can never reach sh
  bad('NUL byte in a guard command', `${LOOP}guard t npm\u0000test`, 3, 12, 'NUL byte'),
  bad('NUL byte in an agent command', 'mode loop\nagent cmd ./a\u0000.sh', 2, 14, 'NUL byte'),
];
