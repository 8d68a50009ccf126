#!/usr/bin/env node
// The shipped entry point (bundled into dist/bundle/yoke.js): turn source maps on for YOKE_DEBUG=1
// before any other code loads, so stack traces name .ts files and lines, then run the CLI.
if (process.env.YOKE_DEBUG === '1') process.setSourceMapsEnabled(true);
await import('./main.js');
