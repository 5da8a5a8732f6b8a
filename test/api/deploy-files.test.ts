// The container files against the configuration: compose.yaml and the Dockerfile set only variables Tasman reads
// (a misspelt one would be ignored in silence), and the example .env fills every value compose.yaml requires.
// (docker-compose checks the file's syntax and deploy/docker/smoke-test.sh runs the image: .ci/run.)
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { ENV } from '../../src/config.ts';

const read = (file: string) => readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8');
const settings = Object.keys(ENV.properties);
const compose = read('compose.yaml');

describe('the container files', () => {
  it('compose.yaml gives the Tasman services only settings Tasman reads', () => {
    // Keys of an environment block (PostgreSQL's own are POSTGRES_*).
    const names = [...compose.matchAll(/^ {4,6}([A-Z][A-Z0-9_]+):/gm)].map((m) => m[1]!).filter((n) => !n.startsWith('POSTGRES_'));
    expect(names.length).toBeGreaterThan(10);
    for (const name of names) expect(settings, name).toContain(name);
  });

  it('the Dockerfile sets only settings Tasman reads, besides NODE_ENV', () => {
    const block = /^ENV ((?:.*\\\n)*.*)$/m.exec(read('Dockerfile'))![1]!;
    const names = [...block.matchAll(/([A-Z][A-Z0-9_]+)=/g)].map((m) => m[1]!).filter((n) => n !== 'NODE_ENV');
    expect(names).toEqual(expect.arrayContaining(['HOST', 'PORT', 'DATA_DIR']));
    for (const name of names) expect(settings, name).toContain(name);
  });

  it('deploy/docker/compose.env.example fills every value compose.yaml requires', () => {
    const required = [...new Set([...compose.matchAll(/\$\{([A-Z0-9_]+):\?/g)].map((m) => m[1]!))];
    const example = [...read('deploy/docker/compose.env.example').matchAll(/^([A-Z0-9_]+)=/gm)].map((m) => m[1]!);
    expect(required.length).toBeGreaterThan(4);
    for (const name of required) expect(example, name).toContain(name);
  });
});
