// Builds the shipped CLI: each entry point into dist/bundle/ with esbuild, so a command loads one
// small entry file and only the chunks it needs (commands and heavy parts are split off and load
// lazily). Source maps are kept: YOKE_DEBUG=1 turns them on, so stack traces point at .ts lines.
// dist/bundle-meta.json records which sources went into which file.
import { build } from 'esbuild';
import { rmSync, writeFileSync } from 'node:fs';

const outdir = 'dist/bundle';

// zod's `z.locales` namespace re-exports every language's messages (about half of zod's code):
// yoke words errors in English only, so the namespace keeps `en` and the rest is never compiled.
const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]zod[\\/]v4[\\/](classic|core|mini)[\\/]/.test(args.importer) ? { path: 'zod-locales', namespace: 'zod-english-only' } : undefined);
    pluginBuild.onLoad({ filter: /.*/, namespace: 'zod-english-only' }, () => ({
      contents: "export { default as en } from 'zod/v4/locales/en.js';",
      resolveDir: process.cwd(),
    }));
  },
};
rmSync(outdir, { recursive: true, force: true });
const result = await build({
  entryPoints: { yoke: 'cli/entry.ts' },
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.19',
  sourcemap: true,
  // Loaded from node_modules when a command needs it: a browser driver is not bundled.
  // pg's optional native binding (pg-native) is never installed: pg falls back to its JavaScript client.
  external: ['playwright-core', 'pg-native'],
  // jsonc-parser's `main` is a UMD build whose require() calls esbuild cannot follow; its ESM build bundles.
  alias: { 'jsonc-parser': 'jsonc-parser/lib/esm/main.js' },
  // CommonJS dependencies (ws, commander's helpers) call require() for Node's own modules.
  banner: { js: "import { createRequire as __yokeRequire } from 'node:module'; const require = __yokeRequire(import.meta.url);" },
  chunkNames: 'chunks/[name]-[hash]',
  logLevel: 'warning',
  metafile: true,
  plugins: [zodEnglishOnly],
});
// Which sources each output file holds (not shipped): tests/cli/fast-path.test.ts reads it to check
// what a command really loads.
writeFileSync('dist/bundle-meta.json', JSON.stringify(result.metafile));
