// A small real web application for journey tests, on 127.0.0.1: a form that saves a name to a
// second page. `/console-error` logs an error; `/page-error` throws while it loads; `/press` answers
// a key press; `/cookie` says whether the browser sent the cookie it sets; `/vanish` answers 404
// once its button set a cookie; `/site/<file>` serves a file of `siteDir` as it is on disk at that
// moment (an agent's edits show at once); anything unknown answers 404.
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { basename, join } from 'node:path';

/** The running server: its base URL, what it received, and how to stop it. */
export interface JourneyServer {
  url: string;
  /** every form body the server received, in order (to prove a fill reached the application) */
  received: URLSearchParams[];
  /** how many GET requests each path received (to prove how often a page was opened) */
  hits: Map<string, number>;
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
  const hits = new Map<string, number>();
  let saved = '';
  const server: Server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    const cookies = request.headers.cookie ?? '';
    if (request.method === 'GET') hits.set(path, (hits.get(path) ?? 0) + 1);
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
    if (path === '/page-error') return html(200, page('Broken', '<p id="ok">Looks fine</p><script>throw new Error("the widget broke")</script>'));
    if (path === '/press') {
      return html(200, page('Search', `<input id="q"><p id="out"></p>
        <script>document.getElementById('q').addEventListener('keydown', (e) => { if (e.key === 'Enter') document.getElementById('out').textContent = 'Searched ' + e.target.value; });</script>`));
    }
    if (path === '/cookie') {
      response.setHeader('set-cookie', 'seen=1; Path=/');
      return html(200, page('Cookie', `<p id="cookie">${/(^|;\s*)seen=1/.test(cookies) ? 'cookie: seen' : 'cookie: none'}</p>`));
    }
    if (path === '/vanish') {
      if (/(^|;\s*)gone=1/.test(cookies)) return html(404, page('Gone', '<p>Gone</p>'));
      return html(200, page('Here', '<p id="here">Here</p><button id="drop" onclick="document.cookie = \'gone=1; path=/\'">Drop</button>'));
    }
    html(404, page('Not found', '<p>Not found</p>'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    hits,
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
