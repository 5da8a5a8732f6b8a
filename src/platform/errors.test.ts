// The error-code union is closed: every code the source can answer is declared in errorStatus with its status.
// AppError's constructor is typed, but error bodies written as literals (`{ error, code }` in the error handler,
// the dashboard's 404s, the MCP tools' errors) are plain objects: this scan holds them, and every AppError, to it.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { AppError, errorStatus } from './errors.ts';

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return sources(full);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [full] : [];
  });
}

/** The codes written as literals: `new AppError('code'` and error bodies `{ error: …, code: 'code' }`. */
function emittedCodes(text: string): string[] {
  const thrown = [...text.matchAll(/new AppError\(\s*'([a-z_]+)'/g)].map((m) => m[1]!);
  const bodies = [...text.matchAll(/\berror[:,][^;]{0,300}?\bcode:\s*'([a-z_]+)'/g)].map((m) => m[1]!);
  return [...thrown, ...bodies];
}

describe('the error-code union', () => {
  it('finds both forms of a coded error (the scan below cannot pass by matching nothing)', () => {
    expect(emittedCodes("throw new AppError('not_found', 'x'); reply.send({ error: `No ${a}`, code: 'route_not_found' });"))
      .toEqual(['not_found', 'route_not_found']);
  });

  it('declares every code the source emits, with a 4xx or 5xx status', () => {
    const undeclared: string[] = [];
    let found = 0;
    for (const file of sources(SRC)) {
      for (const code of emittedCodes(readFileSync(file, 'utf8'))) {
        found += 1;
        if (!(code in errorStatus)) undeclared.push(`${path.relative(SRC, file)}: ${code}`);
      }
    }
    expect(found).toBeGreaterThan(50);
    expect(undeclared).toEqual([]);
    for (const status of Object.values(errorStatus)) expect(status >= 400 && status < 600).toBe(true);
  });

  it('answers an AppError with its code\'s status', () => {
    expect(new AppError('payload_too_large', 'x').status).toBe(413);
    expect(new AppError('bad_request', 'x').status).toBe(400);
  });
});
