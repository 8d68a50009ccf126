// runOffline with a plain node command: the command reaches the mock at the base URL it is given,
// and, when isolated, nothing else (not even a server on the host's loopback); stdin is closed.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { loopbackNamespaceAvailable, runOffline } from './run-offline.js';

// Posts one model request to $BASE, then tries $HOST_URL, then reads stdin; prints what happened.
const probe = `
const out = {};
const res = await fetch(process.env.BASE + '/v1/responses', { method: 'POST', body: '{}' });
out.mock = res.status + ' ' + (await res.text()).includes('hello from the script');
out.host = await fetch(process.env.HOST_URL).then((r) => 'reached ' + r.status, (e) => 'blocked ' + (e.cause?.code ?? e.message));
out.stdin = await new Promise((done) => { let n = 0; process.stdin.on('data', (c) => { n += c.length; }); process.stdin.on('end', () => done(n)); });
console.log(JSON.stringify(out));
`;

let host: Server | undefined;

afterEach(async () => {
  await new Promise((done) => (host ? host.close(done) : done(undefined)));
  host = undefined;
});

async function hostUrl(): Promise<string> {
  host = createServer((_req, res) => res.end('host'));
  await new Promise<void>((done) => host?.listen(0, '127.0.0.1', done));
  return `http://127.0.0.1:${(host.address() as AddressInfo).port}/`;
}

describe('runOffline', () => {
  it.each([true, false])('isolate=%s: the command reaches the mock; isolated, it cannot reach the host', async (isolate) => {
    const HOST_URL = await hostUrl();
    const run = await runOffline({
      script: [{ text: 'hello from the script' }],
      isolate,
      timeoutMs: 30_000,
      command: (BASE) => ({ file: process.execPath, args: ['--input-type=module', '-e', probe], env: { PATH: process.env.PATH ?? '', BASE, HOST_URL }, cwd: process.cwd() }),
    });
    expect(run.exitCode, run.stderr).toBe(0);
    const isolated = isolate && loopbackNamespaceAvailable();
    expect(run.isolated).toBe(isolated);
    expect(JSON.parse(run.stdout)).toEqual({ mock: '200 true', host: isolated ? 'blocked ECONNREFUSED' : 'reached 200', stdin: 0 });
    expect(run.requests.map((request) => [request.path, request.turn])).toEqual([['/v1/responses', 0]]);
    expect(run.commandMs).toBeGreaterThan(0);
  });

  it('kills the whole process group at the timeout', async () => {
    const run = await runOffline({
      script: [],
      timeoutMs: 1_000,
      command: () => ({ file: 'sh', args: ['-c', 'sleep 30 & sleep 30'], env: { PATH: process.env.PATH ?? '' }, cwd: process.cwd() }),
    });
    expect(run.timedOut).toBe(true);
    expect(run.exitCode === null || run.signal !== null || run.exitCode !== 0).toBe(true);
  });
});
