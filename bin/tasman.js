#!/usr/bin/env node
// Runs the compiled server in dist/ with plain node: no compiler is loaded at run time (it cost start-up time, CPU
// and tens of MB per process). dist/ is built from src/ by `npm install` and again here whenever the sources
// changed since (bin/build-if-stale.mjs), so `git pull && npm start` and the tests never run an old build.
import cluster from 'node:cluster';
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { buildIfStale, DIST } from './build-if-stale.mjs';
import { installStackSourceMaps } from './stack-source-maps.mjs';

const main = `${DIST}/cli/main.js`;

// A cluster child runs this file again: its primary has just checked the build.
if (!cluster.isWorker) {
  let result;
  try {
    result = buildIfStale();
  } catch (err) {
    process.stderr.write(`tasman: ${err.message}\n`);
    process.exit(1);
  }
  if (result === 'no-compiler') {
    if (!existsSync(main)) {
      process.stderr.write('tasman: dist/ is not built and TypeScript is not installed: run `npm install`\n');
      process.exit(1);
    }
    process.stderr.write('tasman: src/ changed since dist/ was built, and TypeScript is not installed to rebuild it: running the old build\n');
  }
}

// Stack traces name the TypeScript file and line (dist/ carries source maps), each map read when a stack needs it.
installStackSourceMaps(DIST);
await import(pathToFileURL(main).href);
