// Standalone mock model server, so a test can start it inside the CLI's network namespace:
//   node --import tsx tests/support/mock-model-server/main.ts --script s.json --port-file p --log l.jsonl [--port N]
// Writes the port to --port-file once listening (written to a temp name, then renamed), runs until
// SIGTERM/SIGINT.
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { parseMockScript } from './mock-script.js';
import { startMockModelServer } from './mock-model-server.js';

const { values } = parseArgs({
  options: { script: { type: 'string' }, 'port-file': { type: 'string' }, log: { type: 'string' }, port: { type: 'string' } },
  strict: true,
});
if (values.script === undefined) {
  process.stderr.write('mock-model-server: --script <file.json> is required; see tests/support/mock-model-server/README.md.\n');
  process.exit(2);
}
const script = parseMockScript(JSON.parse(readFileSync(values.script, 'utf8')), values.script);
const server = await startMockModelServer({ script, port: values.port === undefined ? 0 : Number(values.port), logFile: values.log });
if (values['port-file'] !== undefined) {
  writeFileSync(`${values['port-file']}.tmp`, `${server.port}\n`);
  renameSync(`${values['port-file']}.tmp`, values['port-file']);
} else {
  process.stdout.write(`${server.url}\n`);
}
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    void server.close().then(() => process.exit(0));
  });
}
