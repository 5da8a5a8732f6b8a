// Summarises a V8 .cpuprofile (from BENCH_CPU_PROF=<dir>): self time by function and by file, and idle share.
// Usage: npx tsx bench/profile.ts <file.cpuprofile> [top=25]
import { readFileSync } from 'node:fs';

interface Node { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }
interface Profile { nodes: Node[]; samples: number[]; timeDeltas: number[] }

const file = process.argv[2];
if (!file) throw new Error('usage: npx tsx bench/profile.ts <file.cpuprofile> [top]');
const top = Number(process.argv[3] ?? 25);
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const self = new Map<number, number>();
profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
const total = [...self.values()].reduce((a, b) => a + b, 0);

const short = (url: string) => url.replace(/^file:\/\//, '').replace(/^.*\/node_modules\//, 'npm:').replace(/^.*\/work\/main\//, '');
const fns = new Map<string, number>();
const files = new Map<string, number>();
for (const [id, us] of self) {
  const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
  const f = `${functionName || '(anonymous)'} ${short(url)}:${lineNumber + 1}`;
  fns.set(f, (fns.get(f) ?? 0) + us);
  const k = url ? short(url).replace(/^(npm:(@[^/]+\/)?[^/]+).*$/, '$1') : `(${functionName})`;
  files.set(k, (files.get(k) ?? 0) + us);
}
const show = (title: string, m: Map<string, number>) => {
  process.stdout.write(`\n${title}\n`);
  for (const [k, us] of [...m].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    process.stdout.write(`${((100 * us) / total).toFixed(1).padStart(5)}%  ${(us / 1000).toFixed(0).padStart(7)} ms  ${k}\n`);
  }
};
process.stdout.write(`total ${(total / 1000).toFixed(0)} ms sampled\n`);
show('self time by file / package', files);
show('self time by function', fns);
