import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ENV, loadConfig } from './config.ts';

// deploy/: what an operator copies as it is. Every name in it must be one Tasman reads, and its commands must work.

const read = (file: string) => readFileSync(new URL(`../${file}`, import.meta.url), 'utf8');

/** KEY=value pairs of an environment file, or (unit) of a systemd unit's `Environment=` lines. */
function assignments(text: string, unit = false): Map<string, string> {
  const found = new Map<string, string>();
  for (const line of text.split('\n')) {
    const body = unit ? (line.startsWith('Environment=') ? line.slice('Environment='.length) : null) : /^[A-Z]/.test(line) ? line : null;
    for (const pair of body?.split(/\s+/) ?? []) {
      const eq = pair.indexOf('=');
      if (eq > 0) found.set(pair.slice(0, eq), pair.slice(eq + 1));
    }
  }
  return found;
}

describe('deploy/', () => {
  const unit = read('deploy/tasman.service');
  const example = assignments(read('deploy/tasman.env.example'));

  it('the environment example and the unit set only variables Tasman reads, and the example loads once filled in', () => {
    const known = new Set([...Object.keys(ENV.properties), 'NODE_ENV']);
    expect([...example.keys(), ...assignments(unit, true).keys()].filter((n) => !known.has(n))).toEqual([]);
    const filled = Object.fromEntries([...example].map(([k, v]) => [k, k === 'TASMAN_SECRET_KEY' ? 'ab'.repeat(32) : v]));
    const config = loadConfig({ ...filled, ...Object.fromEntries(assignments(unit, true)), TRUST_PROXY: '127.0.0.1' });
    expect(config.databaseUrl).toBe(example.get('DATABASE_URL'));
    expect(config.carriers.config?.carriers).toMatchObject([{ host: 'smsc.carrier.example', tls: true }]);
  });

  it('the unit runs bin/tasman.js start, may write its DATA_DIR, and installs with a command that works', () => {
    expect(unit).toMatch(/^ExecStart=\/usr\/bin\/node bin\/tasman\.js start$/m);
    expect(existsSync(new URL('../bin/tasman.js', import.meta.url))).toBe(true);
    const dataDir = assignments(unit, true).get('DATA_DIR')!;
    expect(unit).toMatch(new RegExp(`^ReadWritePaths=${dataDir}$`, 'm'));
    // `npm ci` refuses this lock file (it lacks tailwind's non-Linux native packages, which the registry these
    // machines reach does not serve: .ci/run), and `--omit=dev` at install would skip building the dashboard.
    expect(unit).not.toMatch(/sudo npm ci/);
    expect(unit).toContain('npm install --no-audit --no-fund && sudo npm prune --omit=dev');
  });

  it('the unit states its start limits in [Unit], where systemd reads them (in [Service] it ignores them)', () => {
    const sections = new Map<string, string[]>();
    let section = '';
    for (const line of unit.split('\n')) {
      const header = /^\[(\w+)\]$/.exec(line);
      if (header) section = header[1]!;
      else if (/^\w+=/.test(line)) sections.set(section, [...(sections.get(section) ?? []), line.slice(0, line.indexOf('='))]);
    }
    expect(sections.get('Unit')).toEqual(expect.arrayContaining(['StartLimitIntervalSec', 'StartLimitBurst']));
    expect(sections.get('Service')).not.toContain('StartLimitIntervalSec');
    expect(sections.get('Service')).not.toContain('StartLimitBurst');
  });
});
