// A small real web application for journey tests, on 127.0.0.1: a form that saves a name to a
// second page. `/console-error` logs an error; `/site/<file>` serves a file of `siteDir` as it is
// on disk at that moment (an agent's edits show at once); anything unknown answers 404.
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { basename, join } from 'node:path';

/** The running server: its base URL, what it received, and how to stop it. */
export interface JourneyServer {
  url: string;
  /** every form body the server received, in order (to prove a fill reached the application) */
  received: URLSearchParams[];
  close(): Promise<void>;
}

const page = (title: string, body: string): string =>
  `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body>${body}</body></html>`;

const FORM = page('Profile', `
  <h1>Profile</h1>
  <form method="post" action="/save">
    <label>Name <input id="name" name="name"></label>
    <label>Password <input id="password" name="password" type="password"></label>
    <button id="save" type="submit">Save</button>
  </form>`);

function escape(text: string): string {
  return text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] ?? c);
}

/** Start the application on a free port of 127.0.0.1; `siteDir` is the folder `/site/` serves (none without it). */
export async function startJourneyServer(options: { siteDir?: string } = {}): Promise<JourneyServer> {
  const received: URLSearchParams[] = [];
  let saved = '';
  const server: Server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    const html = (status: number, text: string): void => {
      response.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
      response.end(text);
    };
    if (request.method === 'POST' && path === '/save') {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      request.on('end', () => {
        const form = new URLSearchParams(body);
        received.push(form);
        saved = form.get('name') ?? '';
        response.writeHead(303, { location: '/saved' });
        response.end();
      });
      return;
    }
    if (path === '/') return html(200, FORM);
    if (path.startsWith('/site/') && options.siteDir !== undefined) {
      let file: string | null;
      try {
        file = readFileSync(join(options.siteDir, basename(path)), 'utf8');
      } catch {
        file = null;
      }
      return file === null ? html(404, page('Not found', '<p>Not found</p>')) : html(200, file);
    }
    if (path === '/saved') return html(200, page('Saved', `<p id="saved">Saved ${escape(saved)}</p><a id="back" href="/">Back</a>`));
    if (path === '/console-error') return html(200, page('Oops', '<p id="ok">Looks fine</p><script>console.error("the widget failed")</script>'));
    html(404, page('Not found', '<p>Not found</p>'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
