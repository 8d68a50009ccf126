#!/usr/bin/env node
// The scripted agent `yoke demo stories` drives: no model, no network. It reads the story from its
// prompt and does it; its first go at S2 has a bug, which S2's check catches, and it fixes it next time.
import { existsSync, readFileSync, writeFileSync, appendFileSync } from 'node:fs';

const prompt = readFileSync(0, 'utf8');
const story = /^### ([A-Za-z0-9_-]+):/m.exec(prompt)?.[1] ?? '?';
console.log(`[demo agent] working on story ${story} (${/\d+ of \d+ stories passed/.exec(prompt)?.[0] ?? 'progress unknown'})`);

if (story === 'S1') {
  writeFileSync('greet.mjs', "export const greet = (name) => `hello, ${name}`;\n");
  writeFileSync('.loop/notes.md', 'STATUS: DONE\nDecision: greet() takes the name and returns the greeting; no I/O.\n');
} else if (story === 'S2') {
  if (!existsSync('farewell.mjs')) {
    writeFileSync('farewell.mjs', "export const farewell = (name) => `bye ${name}`;\n");
  } else {
    console.log('[demo agent] the previous attempt failed its check; fixing farewell.mjs');
    writeFileSync('farewell.mjs', "import { greet } from './greet.mjs';\nexport const farewell = (name) => greet(name).replace('hello', 'goodbye');\n");
  }
  writeFileSync('.loop/notes.md', 'STATUS: DONE\nDecision: farewell() reuses greet().\n');
} else {
  appendFileSync('README.md', '\n## Usage\n\n```js\nimport { greet } from "./greet.mjs";\n```\n');
  writeFileSync('.loop/notes.md', 'STATUS: DONE\nDocumented the usage in README.md.\n');
}
const usage = process.env.YOKE_USAGE_FILE;
if (usage) writeFileSync(usage, JSON.stringify({ input_tokens: 1500, output_tokens: 120, model: 'scripted-demo' }));
