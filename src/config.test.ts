import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ConfigError, defaultApiProcesses, ENV, loadConfig } from './config.ts';

type Documented = { default?: unknown; docDefault?: string; description?: string };

/** docs/operations.md's table: variable → the default column (one value per variable, or one for all of a row). */
function documentedDefaults(): Map<string, string> {
  const doc = readFileSync(new URL('../docs/operations.md', import.meta.url), 'utf8');
  const found = new Map<string, string>();
  for (const line of doc.split('\n')) {
    const cells = line.split('|').map((c) => c.trim());
    if (cells.length < 4 || !cells[1]!.startsWith('`')) continue;
    const names = [...cells[1]!.matchAll(/`([A-Z0-9_]+)`/g)].map((m) => m[1]!);
    const defaults = names.length > 1 && cells[2]!.split(', ').length === names.length ? cells[2]!.split(', ') : names.map(() => cells[2]!);
    names.forEach((name, i) => found.set(name, defaults[i]!));
  }
  return found;
}

describe('configuration', () => {
  it('docs/operations.md lists exactly the variables of ENV, each with its default', () => {
    const documented = documentedDefaults();
    const declared = Object.keys(ENV.properties);
    expect([...documented.keys()].sort()).toEqual([...declared].sort());
    for (const name of declared) {
      const schema = ENV.properties[name as keyof typeof ENV.properties] as unknown as Documented;
      expect(schema.description, name).toBeTruthy();
      const expected = schema.docDefault ?? (schema.default === undefined ? 'unset' : String(schema.default));
      expect(documented.get(name), name).toBe(expected);
    }
  });

  it('TASMAN_WORKERS defaults to a process per core, less one for the workers process beside them, at least one', () => {
    expect(defaultApiProcesses(2, true)).toBe(1);
    expect(defaultApiProcesses(8, true)).toBe(7);
    expect(defaultApiProcesses(1, true)).toBe(1);
    expect(defaultApiProcesses(2, false)).toBe(2);
    expect(defaultApiProcesses(1, false)).toBe(1);
  });

  it('every SMPP option is reachable from the environment', () => {
    const c = loadConfig({ SMPP_SUBMIT_ID_BASE: 'decimal', SMPP_RECEIPT_ID_BASE: 'hex', SMPP_INBOUND_DEFAULT_ALPHABET: 'latin1', SMPP_CONCAT_REF_BITS: '16' });
    expect(c.smpp).toMatchObject({ messageIds: { submit: 'decimal', receipt: 'hex' }, inboundDefaultAlphabet: 'latin1', concatRefBits: 16 });
    expect(loadConfig({}).smpp).toMatchObject({ messageIds: { submit: 'auto', receipt: 'auto' }, inboundDefaultAlphabet: 'gsm', concatRefBits: 8 });
  });

  it('a bad value stops start-up with a message naming the variable', () => {
    const fails = (env: Record<string, string>) => { try { loadConfig(env); return null; } catch (err) { expect(err).toBeInstanceOf(ConfigError); return (err as Error).message; } };
    expect(fails({ PORT: 'eighty' })).toBe('PORT must be a whole number, got "eighty"');
    expect(fails({ SMPP_WINDOW: '0' })).toBe('SMPP_WINDOW must be between 1 and 10000, got 0');
    expect(fails({ SMPP_TLS: 'maybe' })).toBe('SMPP_TLS must be true or false, got "maybe"');
    expect(fails({ SMPP_RECEIPT_ID_BASE: 'octal' })).toBe('SMPP_RECEIPT_ID_BASE must be one of auto, hex, decimal, string; got "octal"');
    expect(fails({ TASMAN_ROLES: 'api,cron' })).toBe('TASMAN_ROLES must list api and/or workers, got "api,cron"');
    expect(fails({ DATABASE_URL: 'mysql://x' })).toMatch(/^DATABASE_URL must use postgres: or postgresql:/);
    expect(fails({ DATABASE_URL: 'postgres://u@a:1,b:x/db' })).toBe('DATABASE_URL must list its hosts as host:port separated by commas: "b:x" is not host or host:port');
    expect(fails({ DATABASE_URL: 'postgres://u@a/db', DATABASE_HOSTS: 'a:1,,b' })).toBe('DATABASE_HOSTS must list its hosts as host:port separated by commas: "" is not host or host:port');
    expect(fails({ DATABASE_HOSTS: 'a:1,b:2' })).toBe('DATABASE_HOSTS needs DATABASE_URL (for the user, password and database)');
  });

  it('a primary and its standbys: several hosts in DATABASE_URL, or DATABASE_HOSTS replacing its host', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://u:p@h1:5432,h2:5433/tasman' }).databaseUrl).toBe('postgres://u:p@h1:5432,h2:5433/tasman');
    expect(loadConfig({ DATABASE_URL: 'postgres://u:p@localhost/tasman', DATABASE_HOSTS: 'h1:5432,h2:5433' }).databaseUrl).toBe('postgres://u:p@h1:5432,h2:5433/tasman');
  });

  it('WEBHOOK_ALLOW_PRIVATE defaults to true with the embedded database, false with DATABASE_URL', () => {
    expect(loadConfig({}).webhook.allowPrivate).toBe(true);
    expect(loadConfig({ DATABASE_URL: 'postgres://x/y' }).webhook.allowPrivate).toBe(false);
    expect(loadConfig({ WEBHOOK_ALLOW_PRIVATE: 'false' }).webhook.allowPrivate).toBe(false);
  });
});
