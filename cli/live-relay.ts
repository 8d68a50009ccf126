// The live view's relay: a loopback-only WebSocket hub between yoke and a browser page that embeds
// the hosted Stately inspector. It replaces the package's relay, which listens on every interface
// and may drop the machine's registration from its buffer on long runs.
import { createServer, type Server } from 'node:http';
import type * as WsModule from 'ws';

/** A running relay. */
export interface LiveRelay {
  port: number;
  stop(): void;
}

/** Messages kept for a viewer that connects late (the actor registration is always kept). */
const KEEP = 500;

/** The page a browser opens: the hosted inspector in a frame, fed from the relay. */
function bridgePage(port: number): string {
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>yoke live view</title>
<style>html,body,iframe{margin:0;width:100%;height:100%;border:0}</style></head>
<body><iframe id="inspector" src="https://stately.ai/inspect"></iframe>
<script>
  const frame = document.getElementById('inspector');
  const waiting = [];
  let ready = false;
  addEventListener('message', (e) => {
    if (e.data && e.data.type === '@statelyai.connected') { ready = true; for (const m of waiting.splice(0)) frame.contentWindow.postMessage(m, '*'); }
  });
  const socket = new WebSocket('ws://127.0.0.1:${port}');
  socket.onmessage = (e) => { const m = JSON.parse(e.data); if (ready) frame.contentWindow.postMessage(m, '*'); else waiting.push(m); };
</script></body></html>`;
}

/** Start the relay on 127.0.0.1 (port 0: a free one); rejects when the port cannot be had. */
export async function startLiveRelay(ws: typeof WsModule, port: number): Promise<LiveRelay> {
  const http: Server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(bridgePage(actualPort()));
  });
  const hub = new ws.WebSocketServer({ server: http });
  // The hub re-emits the HTTP server's errors (EADDRINUSE): they are handled by the listen below.
  hub.on('error', () => undefined);
  const pinned: string[] = [];
  const recent: string[] = [];
  hub.on('connection', (socket) => {
    for (const message of [...pinned, ...recent]) socket.send(message);
    socket.on('message', (data: Buffer) => {
      const message = data.toString();
      if (message.includes('"@xstate.actor"')) pinned.push(message);
      else {
        recent.push(message);
        if (recent.length > KEEP) recent.shift();
      }
      for (const peer of hub.clients) if (peer !== socket && peer.readyState === ws.WebSocket.OPEN) peer.send(message);
    });
  });
  const actualPort = (): number => {
    const address = http.address();
    return typeof address === 'object' && address !== null ? address.port : port;
  };
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(port, '127.0.0.1', () => {
      http.off('error', reject);
      resolve();
    });
  });
  http.unref();
  return {
    port: actualPort(),
    stop() {
      for (const client of hub.clients) client.terminate();
      hub.close();
      http.closeAllConnections();
      http.close();
    },
  };
}
