import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCarriersConfig, parseRoutesOnly } from './carriers-config.ts';
import { loadConfig } from '../config.ts';

const defaults = { validityHours: 48, concatRefBits: 8 as const };
const env = { AU_PW: 'secret-au', NZ_PW: 'secret-nz' };
const au = { id: 'au', host: 'smsc.au.example', system_id: 'tasman', password_env: 'AU_PW' };
const nz = { id: 'nz', host: 'smsc.nz.example', port: 2776, system_id: 'tasman', password_env: 'NZ_PW', binds: 2, tps: 150, window: 20 };
const parse = (doc: unknown, e: Record<string, string> = env) => parseCarriersConfig(JSON.stringify(doc), e, defaults);

describe('TASMAN_CARRIERS', () => {
  it('reads every field, with defaults for the ones left out', () => {
    const c = parse({
      carriers: [au, { ...nz, tls: true, system_type: 'vma', bind_mode: 'transmitter_receiver', submit_id_base: 'hex', receipt_id_base: 'decimal', data_coding: 1, validity_hours: 24, query_sm: true, concat_ref_bits: 16, inbound_default_alphabet: 'latin1', failover_after_seconds: 10 }],
      routes: [{ country: 'NZ', carriers: ['nz', 'au'] }, { carriers: ['au', 'nz'] }],
    });
    expect(c.carriers[0]).toEqual({
      id: 'au', host: 'smsc.au.example', port: 2775, tls: false, systemId: 'tasman', password: 'secret-au', systemType: '',
      bindMode: 'transceiver', binds: 1, window: 100, tps: 100, messageIds: { submit: 'auto', receipt: 'auto' }, dataCoding: 0,
      validityHours: 48, querySm: false, querySmAfterMs: 3_600_000, concatRefBits: 8, inboundDefaultAlphabet: 'gsm', failoverAfterMs: 30_000,
    });
    expect(c.carriers[1]).toMatchObject({
      id: 'nz', port: 2776, tls: true, password: 'secret-nz', systemType: 'vma', bindMode: 'transmitter_receiver', binds: 2, window: 20, tps: 150,
      messageIds: { submit: 'hex', receipt: 'decimal' }, dataCoding: 1, validityHours: 24, querySm: true, querySmAfterMs: 3_600_000, concatRefBits: 16,
      inboundDefaultAlphabet: 'latin1', failoverAfterMs: 10_000,
    });
    expect(c.routes).toEqual([{ country: ['NZ'], carriers: ['nz', 'au'] }, { carriers: ['au', 'nz'] }]);
  });

  it('without routes, every message goes to the carriers in file order', () => {
    expect(parse({ carriers: [au, nz] }).routes).toEqual([{ carriers: ['au', 'nz'] }]);
  });

  it.each([
    [{ carriers: [] }, 'carriers must be a non-empty array'],
    [{ carriers: [au], extra: 1 }, 'extra is not a top-level field'],
    [{ carriers: [{ ...au, query_sm: true }] }, 'carriers[0].submit_id_base must be hex, decimal or string when query_sm is true'],
    [{ carriers: [{ ...au, query_sm: true, submit_id_base: 'hex', validity_hours: 1, query_sm_after_seconds: 3600 }] }, 'carriers[0].query_sm_after_seconds must be a whole number from 1 to 3599'],
    [{ carriers: [{ ...au, password: 'x' }] }, 'carriers[0].password is not read from the file: put the password in an environment variable and name it in password_env'],
    [{ carriers: [{ ...au, password_env: 'MISSING' }] }, 'carriers[0].password_env names MISSING, which is not set'],
    [{ carriers: [{ ...au, port: 70000 }] }, 'carriers[0].port must be a whole number from 1 to 65535'],
    [{ carriers: [{ ...au, binds: 0 }] }, 'carriers[0].binds must be a whole number from 1 to 64'],
    [{ carriers: [{ ...au, tps: 'fast' }] }, 'carriers[0].tps must be a whole number'],
    [{ carriers: [{ ...au, bind_mode: 'receiver' }] }, 'carriers[0].bind_mode must be one of transceiver, transmitter_receiver'],
    [{ carriers: [{ ...au, id: 'AU Telco' }] }, 'carriers[0].id must be lower-case letters'],
    [{ carriers: [au, { ...nz, id: 'au' }] }, 'carriers[1].id "au" is used twice'],
    [{ carriers: [{ ...au, hostname: 'x' }] }, 'carriers[0].hostname is not a carrier field'],
    [{ carriers: [{ ...au, host: undefined }] }, 'carriers[0].host must be a non-empty string'],
    [{ carriers: [au], routes: [{ carriers: ['nz'] }] }, 'routes[0].carriers names "nz", which is not a configured carrier'],
    [{ carriers: [au], routes: [{ country: 'AU', carriers: ['au'] }] }, 'the last route must be the fallback'],
    [{ carriers: [au], routes: [{ country: 'Australia', carriers: ['au'] }, { carriers: ['au'] }] }, 'routes[0].country must be an ISO country code'],
    [{ carriers: [au], routes: [{ prefix: '64', carriers: ['au'] }, { carriers: ['au'] }] }, 'routes[0].prefix must be an E.164 prefix'],
    [{ carriers: [au], routes: [{ sender: 'alpha', carriers: ['au'] }, { carriers: ['au'] }] }, 'routes[0].sender must be "alphanumeric" or "number"'],
    [{ carriers: [au], routes: [{ to: '+61', carriers: ['au'] }, { carriers: ['au'] }] }, 'routes[0].to is not a route field'],
  ])('refuses %j with a message naming the field', (doc, message) => {
    expect(() => parse(doc)).toThrow(message);
  });

  it('refuses text that is not JSON', () => {
    expect(() => parseCarriersConfig('carriers:\n  - id: au', env, defaults)).toThrow(/is not valid JSON/);
  });

  it('a reload reads the routes alone, against the carriers already running', () => {
    const ids = new Set(['au', 'nz']);
    expect(parseRoutesOnly(JSON.stringify({ carriers: [], routes: [{ carriers: ['nz'] }] }), ids)).toEqual([{ carriers: ['nz'] }]);
    expect(() => parseRoutesOnly(JSON.stringify({ routes: [{ carriers: ['uk'] }] }), ids)).toThrow(/"uk", which is not a configured carrier/);
  });

  it('loadConfig reads the file named by TASMAN_CARRIERS, and names it in its errors', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'tasman-carriers-'));
    const file = path.join(dir, 'carriers.json');
    writeFileSync(file, JSON.stringify({ carriers: [au, nz] }));
    const config = loadConfig({ TASMAN_CARRIERS: file, ...env });
    expect(config.carriers.file).toBe(file);
    expect(config.carriers.config?.carriers.map((c) => c.id)).toEqual(['au', 'nz']);
    expect(() => loadConfig({ TASMAN_CARRIERS: file })).toThrow(`TASMAN_CARRIERS (${file}): carriers[0].password_env names AU_PW, which is not set`);
    expect(() => loadConfig({ TASMAN_CARRIERS: path.join(dir, 'none.json') })).toThrow(/TASMAN_CARRIERS: cannot read/);
  });

  it('the SMPP_* variables are one carrier named default; neither runs the simulator', () => {
    const one = loadConfig({ SMPP_HOST: 'smsc.example', SMPP_WINDOW: '7', SMPP_TPS: '90' }).carriers;
    expect(one.config?.carriers).toEqual([expect.objectContaining({ id: 'default', host: 'smsc.example', binds: 1, window: 7, tps: 90 })]);
    expect(one.config?.routes).toEqual([{ carriers: ['default'] }]);
    expect(loadConfig({ SIM_CARRIERS: '2' }).carriers).toEqual({ file: null, config: null, simulated: 2 });
  });
});
