import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, startProcess, type TasmanProcess } from '../support/process.ts';

// The README as a script: its quick start and the tour's `sh tour` blocks, run in order as a new user runs them, on
// a copy of the checkout with its own ./data (the embedded PostgreSQL), each `# →` line checked against what the
// block printed.

const root = fileURLToPath(new URL('../../', import.meta.url));
const readme = readFileSync(path.join(root, 'README.md'), 'utf8');

/** The fenced blocks whose info string is `sh tour`, in order. */
function tourBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/^```sh tour\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
}

/**
 * The `# →` lines of a block, each with the `#    ` lines right after it joined on, as patterns in which `…`
 * stands for anything.
 */
function expectedOutputs(block: string): RegExp[] {
  const found: string[] = [];
  let open = false;
  for (const line of block.split('\n')) {
    if (line.startsWith('# → ')) { found.push(line.slice(4)); open = true; } else if (open && line.startsWith('#    ')) found[found.length - 1] += line.slice(5);
    else open = false;
  }
  return found.map((text) => new RegExp(text.split('…').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('[\\s\\S]*?')));
}

/** A checkout as `git clone` leaves it, with this one's install (node_modules, dist/, web/dist) in place. */
function cloneLikeCopy(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'tasman-readme-'));
  // A clone lies in a directory others may enter; mkdtemp's 0700 would make the embedded PostgreSQL refuse to
  // start as root (README, "Run it").
  chmodSync(dir, 0o755);
  const listed = spawnSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], { cwd: root, encoding: 'utf8' });
  expect(listed.status).toBe(0);
  for (const file of listed.stdout.split('\0').filter((f) => f && existsSync(path.join(root, f)))) {
    cpSync(path.join(root, file), path.join(dir, file), { preserveTimestamps: true });
  }
  // The build keeps its times, so the copy's dist/ is as fresh as ours and nothing is compiled again.
  for (const built of ['dist', 'web/dist']) cpSync(path.join(root, built), path.join(dir, built), { recursive: true, preserveTimestamps: true });
  symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'));
  return dir;
}

describe('the README as a script', () => {
  const blocks = tourBlocks(readme);
  let dir = '';
  let proc: TasmanProcess | null = null;
  beforeAll(() => { dir = cloneLikeCopy(); });
  afterAll(async () => {
    await proc?.stop('SIGTERM');
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('marks the quick start and the tour', () => {
    expect(readme).toContain('```sh\nnpm install && npm start\n```');
    // `npm start` is what the test starts below: the copy is installed already.
    expect((JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts.start)
      .toBe('node bin/tasman.js start');
    expect(blocks.length).toBeGreaterThanOrEqual(2);
    expect(blocks.flatMap(expectedOutputs).length).toBeGreaterThanOrEqual(6);
  });

  it('runs every tour block in order against `npm start` on the embedded database, each output as shown', async () => {
    // A spare port instead of 3000 (the suite runs files side by side), given to the CLI as the README says for
    // another port; the README's addresses are read with it.
    const port = await freePort();
    proc = await startProcess({ PORT: String(port), SIM_PORT: '0', SIM_CONTROL_PORT: '0', TASMAN_WORKERS: '1' },
      { cwd: dir, bin: path.join(dir, 'bin/tasman.js'), startTimeoutMs: 180_000 });
    const url = `http://127.0.0.1:${port}`;
    const local = (text: string) => text.replaceAll('http://127.0.0.1:3000', url);
    const marker = '::readme-block-end';
    const script = ['set -euo pipefail', ...blocks.map((b) => `${local(b)}\necho ${marker}`)].join('\n');
    const file = path.join(dir, '..', `${path.basename(dir)}.sh`);
    writeFileSync(file, script);
    // A new user's shell: none of the suite's settings, only where Tasman listens.
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(TASMAN_|DATABASE_|DATA_DIR$|PORT$|SIM_)/.test(k)));
    const child = spawn('bash', [file], { cwd: dir, env: { ...env, TASMAN_URL: url }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => { out += c.toString(); });
    child.stderr.on('data', (c: Buffer) => { out += c.toString(); });
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    rmSync(file, { force: true });
    // The end of the output names the command that failed.
    expect(code, out.slice(-3000)).toBe(0);
    const outputs = out.split(`${marker}\n`);
    expect(outputs.length, out.slice(-3000)).toBe(blocks.length + 1);
    blocks.forEach((block, i) => {
      for (const expected of expectedOutputs(local(block))) expect(outputs[i], `README tour block ${i + 1}`).toMatch(expected);
    });
  }, 300_000); // a first start with initdb, then a dozen CLI and curl calls: minutes on a loaded machine
});
