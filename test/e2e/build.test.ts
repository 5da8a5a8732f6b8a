import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

// bin/build-if-stale.mjs in a copy of the checkout (the real dist/ is the one every other test runs): built once
// when several start together, not rebuilt when fresh, rebuilt when a source is newer, and the result runs.
const repo = path.resolve(import.meta.dirname, '../..');
const copy = mkdtempSync(path.join(tmpdir(), 'tasman-build-'));
for (const entry of ['bin', 'src', 'web/dist', 'package.json', 'tsconfig.json', 'tsconfig.build.json']) {
  cpSync(path.join(repo, entry), path.join(copy, entry), { recursive: true });
}
symlinkSync(path.join(repo, 'node_modules'), path.join(copy, 'node_modules'));
afterAll(() => rmSync(copy, { recursive: true, force: true }));

function run(script: string, args: string[] = []): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [path.join(copy, script), ...args], { cwd: copy, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => { stdout += c.toString(); });
  child.stderr.on('data', (c: Buffer) => { stderr += c.toString(); });
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stdout, stderr })));
}

const compiled = (r: { stderr: string }) => (r.stderr.match(/compiling/g) ?? []).length;

describe('the compiled build', () => {
  it('is built once by processes starting together, reused while fresh, rebuilt when a source changes', async () => {
    const first = await Promise.all([run('bin/build-if-stale.mjs'), run('bin/build-if-stale.mjs'), run('bin/build-if-stale.mjs')]);
    expect(first.map((r) => r.code)).toEqual([0, 0, 0]);
    expect(first.reduce((n, r) => n + compiled(r), 0)).toBe(1);
    expect(existsSync(path.join(copy, 'dist/cli/main.js'))).toBe(true);
    expect(existsSync(path.join(copy, 'dist/cli/main.js.map'))).toBe(true);
    // The migrations are read from beside the compiled client; no `.ts` import survives in the output.
    expect(existsSync(path.join(copy, 'dist/platform/db/migrations/meta/_journal.json'))).toBe(true);
    expect(readFileSync(path.join(copy, 'dist/cli/main.js'), 'utf8')).not.toMatch(/from ["'][^"']+\.ts["']|import\(["'][^"']+\.ts["']\)/);

    const again = await run('bin/build-if-stale.mjs');
    expect(compiled(again)).toBe(0);

    // A source saved after the build (its time in the future, as a `git pull` would leave it newer).
    const later = new Date(Date.now() + 60_000);
    utimesSync(path.join(copy, 'src/cli/cli-error.ts'), later, later);
    const help = await run('bin/tasman.js', ['--help']);
    expect(help.stderr).toContain('compiling it again');
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: tasman');
    expect(compiled(await run('bin/tasman.js', ['--help']))).toBe(0);
  }, 240_000);

  it('says what to do in one line when the sources do not compile', async () => {
    cpSync(path.join(copy, 'src/cli/cli-error.ts'), path.join(copy, 'cli-error.ts.bak'));
    try {
      const broken = path.join(copy, 'src/cli/cli-error.ts');
      writeFileSync(broken, 'export const = ;\n');
      const later = new Date(Date.now() + 120_000);
      utimesSync(broken, later, later);
      const r = await run('bin/tasman.js', ['--help']);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/^tasman: compiling src\/ failed/m);
      expect(r.stdout).toBe('');
    } finally {
      cpSync(path.join(copy, 'cli-error.ts.bak'), path.join(copy, 'src/cli/cli-error.ts'));
    }
  }, 120_000);

  it('runs a packaged dist/ without its sources as it is (the container image ships no src/)', async () => {
    const packaged = mkdtempSync(path.join(tmpdir(), 'tasman-packaged-'));
    try {
      for (const entry of ['bin', 'dist', 'package.json']) cpSync(path.join(repo, entry), path.join(packaged, entry), { recursive: true });
      symlinkSync(path.join(repo, 'node_modules'), path.join(packaged, 'node_modules'));
      const child = spawn(process.execPath, [path.join(packaged, 'bin/tasman.js'), '--version'], { cwd: packaged, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      child.stdout.on('data', (c: Buffer) => { out += c.toString(); });
      child.stderr.on('data', (c: Buffer) => { out += c.toString(); });
      const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
      expect(code, out).toBe(0);
      expect(out.trim()).toBe((JSON.parse(readFileSync(path.join(repo, 'package.json'), 'utf8')) as { version: string }).version);
    } finally {
      rmSync(packaged, { recursive: true, force: true });
    }
  }, 60_000);
});
