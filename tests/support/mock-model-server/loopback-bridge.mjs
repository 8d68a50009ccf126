// Forward TCP 127.0.0.1:<port> to a unix socket, so a command inside a loopback-only network
// namespace reaches a mock model server that runs in the test process (unix sockets cross network
// namespaces; TCP does not). Plain JavaScript on purpose: it starts in a fraction of tsx's time.
//   node loopback-bridge.mjs <port> <unix socket path> <ready file>
// Writes the ready file once listening; runs until killed.
import { writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';

const [port, socketPath, readyFile] = process.argv.slice(2);
if (port === undefined || socketPath === undefined || readyFile === undefined) {
  process.stderr.write('loopback-bridge: usage: node loopback-bridge.mjs <port> <unix socket path> <ready file>\n');
  process.exit(2);
}
const server = createServer((client) => {
  const upstream = connect(socketPath);
  client.pipe(upstream).pipe(client);
  client.on('error', () => upstream.destroy());
  upstream.on('error', () => client.destroy());
});
server.listen(Number(port), '127.0.0.1', () => writeFileSync(readyFile, `${port}\n`));
