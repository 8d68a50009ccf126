#!/usr/bin/env node
// The scripted agent `yoke demo` drives: three iterations, no model, no network.
// Iteration 1 writes a buggy greet.mjs; 2 fixes it; 3 checks and says DONE.
import { readFileSync, writeFileSync } from 'node:fs';

const iteration = Number(process.env.YOKE_ITERATION ?? '1');
const prompt = readFileSync(0, 'utf8');
console.log(`[demo agent] iteration ${iteration}: read a ${prompt.length}-character prompt`);

if (iteration === 1) {
  writeFileSync('greet.mjs', "export const greet = (name) => `hello ${name}`;\n");
  writeFileSync('.loop/notes.md', 'STATUS: IN_PROGRESS\nWrote greet.mjs. Not checked yet.\n');
} else if (iteration === 2) {
  const results = readFileSync('.loop/guard-results.md', 'utf8');
  console.log(`[demo agent] guard results say: ${results.includes('FAIL') ? 'a guard failed' : 'all passed'}`);
  writeFileSync('greet.mjs', "export const greet = (name) => `hello, ${name}`;\n");
  writeFileSync('.loop/notes.md', 'STATUS: IN_PROGRESS\nFixed the missing comma the test guard reported.\n');
} else {
  writeFileSync('.loop/notes.md', 'STATUS: DONE\ngreet.mjs passes its check; the plan is complete.\n');
}
const usage = process.env.YOKE_USAGE_FILE;
if (usage) writeFileSync(usage, JSON.stringify({ input_tokens: 1200 + iteration, output_tokens: 80 * iteration, model: 'scripted-demo' }));
console.log(`[demo agent] iteration ${iteration} done`);
