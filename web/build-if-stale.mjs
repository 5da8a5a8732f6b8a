// Builds the dashboard (web/ → web/dist) when it is missing or older than its sources. Run by `npm install`
// (prepare) and by the end-to-end tests; a production install without dev dependencies skips it with a note.
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const web = path.dirname(fileURLToPath(import.meta.url));
const out = path.join(web, 'dist', 'index.html');

function newest(p) {
  const s = statSync(p);
  if (!s.isDirectory()) return s.mtimeMs;
  return Math.max(0, ...readdirSync(p).map((f) => newest(path.join(p, f))));
}

const sources = ['src', 'index.html', 'vite.config.ts'].map((f) => path.join(web, f)).filter(existsSync);
if (existsSync(out) && statSync(out).mtimeMs >= Math.max(...sources.map(newest)) && !process.argv.includes('--force')) {
  process.exit(0);
}
const vite = path.join(web, '..', 'node_modules', 'vite', 'bin', 'vite.js');
if (!existsSync(vite)) {
  console.warn('dashboard: vite is not installed (production install?), so web/dist was not built');
  process.exit(0);
}
// The API types the pages are checked against, from the app's schemas (scripts/api-schema.ts; rewritten only when
// they changed). CI builds with the committed ones, so that test/api/api-client.test.ts finds them stale instead
// of a build quietly making them current.
const tsx = path.join(web, '..', 'node_modules', 'tsx', 'dist', 'cli.mjs');
if (existsSync(tsx) && !process.env.CI) {
  const gen = spawnSync(process.execPath, [tsx, path.join(web, '..', 'scripts', 'api-schema.ts')], { stdio: ['ignore', 'ignore', 'inherit'] });
  if (gen.status !== 0) process.exit(gen.status ?? 1);
}
const run = spawnSync(process.execPath, [vite, 'build', '--config', path.join(web, 'vite.config.ts'), '--logLevel', 'warn'], { stdio: 'inherit' });
if (run.status !== 0) process.exit(run.status ?? 1);

// Compressed copies beside each asset, served as they are (no compression per request).
const assets = path.join(web, 'dist', 'assets');
for (const f of readdirSync(assets).filter((f) => /\.(js|css)$/.test(f))) {
  const file = path.join(assets, f);
  const data = readFileSync(file);
  writeFileSync(`${file}.gz`, gzipSync(data, { level: 9 }));
  writeFileSync(`${file}.br`, brotliCompressSync(data));
}
