import { afterEach, describe, expect, it } from 'vitest';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { loadConfig as LoadConfig } from '../../src/config.ts';
// @ts-expect-error: plain JavaScript beside bin/tasman.js, without declarations
import { buildIfStale, DIST } from '../../bin/build-if-stale.mjs';
// @ts-expect-error: as above
import { installStackSourceMaps } from '../../bin/stack-source-maps.mjs';

const original = Error.prepareStackTrace;
afterEach(() => { Error.prepareStackTrace = original; });

describe('stack traces of the compiled server', () => {
  it('name the TypeScript file and line of a dist/ frame, and leave other frames and the first line as they are', async () => {
    (buildIfStale as () => void)();
    (installStackSourceMaps as (dist: string) => void)(DIST);
    const { loadConfig } = await import(pathToFileURL(path.join(DIST as string, 'config.js')).href) as { loadConfig: typeof LoadConfig };
    let stack = '';
    try { loadConfig({ PORT: 'abc' }); } catch (err) { stack = (err as Error).stack ?? ''; }
    const lines = stack.split('\n');
    expect(lines[0]).toBe('Error: PORT must be a whole number, got "abc"');
    expect(lines[1]).toMatch(new RegExp(`^    at read \\(${path.resolve('src/config.ts').replace(/[.\\/]/g, '\\$&')}:\\d+:\\d+\\)$`));
    expect(stack).not.toContain(DIST as string);
    expect(stack).toContain('stack-source-maps.test.ts');

    const nodeError = (() => { try { Buffer.alloc(-1); } catch (err) { return err as Error; } return null; })();
    expect(nodeError?.stack?.split('\n')[0]).toMatch(/^RangeError \[ERR_OUT_OF_RANGE\]: /);
  });
});
