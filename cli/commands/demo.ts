// `yoke demo [stories]`: a real run in a temporary git repository with a scripted agent, offline.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { YokeError } from '../../errors/yoke-error.js';
import { canonDir } from '../canon.js';
import { demoGit, demoRepository, demoYoke, printDemoTimeline } from '../demo-steps.js';

const CHECK = `import { greet } from './greet.mjs';
const got = greet('yoke');
if (got !== 'hello, yoke') { console.error(\`expected "hello, yoke", got "\${got}"\`); process.exit(1); }
console.log('greet ok');
`;

/** The demos there are: a 3-iteration loop (the default) and a 3-story list. */
const DEMOS = ['loop', 'stories'] as const;

/** Run the demo `which` names (default: the loop); its exit code is the demo run's. */
export async function demoCommand(which: string | undefined, flags: { keep: boolean }): Promise<number> {
  if (which !== undefined && !(DEMOS as readonly string[]).includes(which)) {
    throw new YokeError('usage', `there is no \`${which}\` demo; run \`yoke demo\` (a loop) or \`yoke demo stories\`.`);
  }
  const dir = mkdtempSync(join(tmpdir(), 'yoke-demo-'));
  try {
    const status = which === 'stories' ? await storiesDemo(dir) : await loopDemo(dir);
    process.stdout.write(`\nyoke run exited ${status}. ${flags.keep ? `The repository is kept at ${dir}.` : `Use \`yoke demo${which === 'stories' ? ' stories' : ''} --keep\` to keep the repository.`}\n`);
    return status;
  } finally {
    if (!flags.keep) rmSync(dir, { recursive: true, force: true });
  }
}

/** `yoke init loop`, a plan, one guard, `yoke run`: three iterations, then the log and the timeline. */
async function loopDemo(dir: string): Promise<number> {
  const yoke = process.argv[1] ?? '';
  demoRepository(dir, { 'check.mjs': CHECK, 'README.md': '# demo project\n' });
  say(`$ cd ${dir} && yoke init loop`);
  demoYoke(yoke, dir, ['init', 'loop']);
  const agent = join(canonDir(), 'demo', 'agent.mjs');
  writeFileSync(join(dir, '.loop', 'plan.md'), '# Plan\n\nWrite greet.mjs exporting greet(name) that returns "hello, <name>".\n');
  writeFileSync(join(dir, '.loop', 'yoke.conf'), [
    '# yoke demo: a scripted agent, one guard, a commit after every passing iteration',
    'mode loop',
    `agent cmd ${JSON.stringify(process.execPath)} ${JSON.stringify(agent)}`,
    'max-iterations 5',
    'guard test node check.mjs',
    'no-modify check.mjs',
    'commit each',
    '',
  ].join('\n'));
  say('$ yoke run');
  const status = demoYoke(yoke, dir, ['run']);
  say('$ git log --oneline');
  process.stdout.write(demoGit(dir, ['log', '--oneline']));
  await printDemoTimeline(dir);
  return status;
}

const STORY_CHECKS: Record<string, string> = {
  'check-greet.mjs': "import { greet } from './greet.mjs';\nif (greet('yoke') !== 'hello, yoke') { console.error('greet is wrong'); process.exit(1); }\n",
  'check-farewell.mjs': "import { farewell } from './farewell.mjs';\nconst got = farewell('yoke');\nif (got !== 'goodbye, yoke') { console.error(`expected \"goodbye, yoke\", got \"${got}\"`); process.exit(1); }\n",
};

const PRD = `# The yoke demo's stories: S2 builds on S1; each has a check yoke runs after the worker.
stories:
  - id: S1
    title: Greeting
    priority: 1
    acceptance:
      - text: greet(name) returns "hello, <name>"
        check: node check-greet.mjs
  - id: S2
    title: Farewell
    priority: 2
    depends-on: [S1]
    description: farewell(name) says goodbye the way greet(name) says hello.
    acceptance:
      - text: farewell(name) returns "goodbye, <name>"
        check: node check-farewell.mjs
  - id: S3
    title: Usage in the README
    priority: 3
    acceptance:
      - text: README.md has a Usage section
        check: grep -q '^## Usage' README.md
`;

/** `yoke init stories`, three stories, `yoke run` (one commit per story), then `yoke stories` and the timeline. */
async function storiesDemo(dir: string): Promise<number> {
  const yoke = process.argv[1] ?? '';
  demoRepository(dir, { ...STORY_CHECKS, 'README.md': '# demo project\n' });
  say(`$ cd ${dir} && yoke init stories`);
  demoYoke(yoke, dir, ['init', 'stories', '--agent', 'claude']);
  const agent = join(canonDir(), 'demo', 'story-agent.mjs');
  writeFileSync(join(dir, '.loop', 'prd.yaml'), PRD);
  writeFileSync(join(dir, '.loop', 'yoke.conf'), [
    '# yoke demo: a scripted agent works three stories, one per iteration; each passes only through its check',
    'mode stories',
    `agent cmd ${JSON.stringify(process.execPath)} ${JSON.stringify(agent)}`,
    'max-iterations 10',
    ...Object.keys(STORY_CHECKS).map((file) => `no-modify ${file}`),
    '',
  ].join('\n'));
  say('$ yoke stories');
  demoYoke(yoke, dir, ['stories']);
  say('$ yoke run');
  const status = demoYoke(yoke, dir, ['run']);
  say('$ yoke stories');
  demoYoke(yoke, dir, ['stories']);
  say('$ git log --oneline');
  process.stdout.write(demoGit(dir, ['log', '--oneline']));
  await printDemoTimeline(dir);
  return status;
}

function say(line: string): void {
  process.stdout.write(`\n${line}\n`);
}
