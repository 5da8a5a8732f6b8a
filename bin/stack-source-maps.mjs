// Stack traces that name the TypeScript file and line of dist/'s compiled code, read from its source maps only
// when a stack is formatted. Node's own source map support (process.setSourceMapsEnabled) reads and keeps the map
// of every module as it loads, ours and every package's: about 3 MB of heap per process at rest (measured), for
// stacks an idle process never formats. Only frames in dist/ are mapped; a package's frames name its JavaScript.
import { readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Maps `file:///…/dist/x.js:line:column` (or the bare path) in a frame to `/…/src/x.ts:line:column`. */
export function installStackSourceMaps(dist) {
  const maps = new Map();
  const mapOf = (url) => {
    if (!maps.has(url)) {
      let map = null;
      try {
        map = new SourceMap(JSON.parse(readFileSync(new URL(`${url}.map`), 'utf8')));
      } catch { /* no map: the frame stays as it is */ }
      maps.set(url, map);
    }
    return maps.get(url);
  };
  const location = new RegExp(`(?:${escape(pathToFileURL(dist).href)}|${escape(dist)})/[^\\s():]+\\.js:\\d+:\\d+`, 'g');
  const mapped = (text) => text.replace(location, (whole) => {
    const [, file, line, column] = /^(.*):(\d+):(\d+)$/.exec(whole);
    const url = file.startsWith('file:') ? file : pathToFileURL(file).href;
    const entry = mapOf(url)?.findEntry(Number(line) - 1, Number(column) - 1);
    if (!entry?.originalSource) return whole;
    return `${fileURLToPath(new URL(entry.originalSource, url))}:${entry.originalLine + 1}:${entry.originalColumn + 1}`;
  });
  Error.prepareStackTrace = (error, frames) => {
    let header;
    try {
      // Node's own errors say their code in the first line, as Node's formatting does.
      header = typeof error?.code === 'string' && /^ERR_[A-Z0-9_]+$/.test(error.code) && !String(error.name).includes('[')
        ? `${error.name} [${error.code}]: ${error.message}`
        : Error.prototype.toString.call(error);
    } catch {
      header = '<error>';
    }
    return header + frames.map((frame) => `\n    at ${mapped(String(frame))}`).join('');
  };
}
