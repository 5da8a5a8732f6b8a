import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { request } from 'undici';
import { livePostmaster } from '../../src/platform/db/embedded/process.ts';
import { startProcess, type TasmanProcess } from '../support/process.ts';
import { pollUntil } from '../support/poll.ts';

// `tasman start` with TASMAN_WORKERS=2, as real processes: a primary that owns the embedded PostgreSQL, two API
// processes on one port and a workers process, driven over HTTP and with signals.

/** The Node children of `pid` that run tasman, with the role the primary gave each (TASMAN_ROLES). */
function children(pid: number): Array<{ pid: number; role: string }> {
  const found: Array<{ pid: number; role: string }> = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid !== pid || !readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes('tasman.js')) continue;
      const role = readFileSync(`/proc/${entry}/environ`, 'utf8').split('\0').find((v) => v.startsWith('TASMAN_ROLES='))?.slice(13) ?? '';
      found.push({ pid: Number(entry), role });
    } catch { /* exited while we looked */ }
  }
  return found.sort((a, b) => a.role.localeCompare(b.role) || a.pid - b.pid);
}

const alive = (pid: number) => { try { process.kill(pid, 0); return true; } catch { return false; } };

/** Asks until `check` holds; the test's own timeout bounds the wait (the machine's speed does not matter). */
const until = <T>(read: () => Promise<T> | T, check: (value: T) => boolean): Promise<T> =>
  pollUntil(read, check, 'the cluster', 600_000, 200);

describe('tasman start with TASMAN_WORKERS=2', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'tasman-cluster-'));
  let proc: TasmanProcess | null = null;
  afterAll(async () => {
    await proc?.stop('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function http(method: string, url: string, token?: string, body?: unknown) {
    // A connection each (reset): round robin spreads them over the API processes, and none outlives a killed one.
    const res = await request(url, {
      method: method as 'GET', reset: true,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.body.text();
    let json: Record<string, unknown> = {};
    try { json = JSON.parse(text) as Record<string, unknown>; } catch { /* metrics are text */ }
    return { status: res.statusCode, text, body: json };
  }
  const metric = (text: string, name: string) => Number(text.split('\n').find((l) => l.startsWith(`${name} `))?.split(' ')[1] ?? NaN);

  it('serves one port from two API processes, delivers through the workers process, restarts crashed children and stops everything', { timeout: 300_000 }, async () => {
    proc = await startProcess({ DATA_DIR: dataDir, TASMAN_WORKERS: '2' }, { startTimeoutMs: 180_000 });
    const url = proc.url;
    const primary = proc.child.pid!;
    const started = proc.logs.map((l) => { try { return JSON.parse(l) as Record<string, unknown>; } catch { return {}; } }).filter((e) => e.msg === 'tasman started');
    expect(started).toHaveLength(1);
    expect(started[0]).toMatchObject({ url, dashboard: `${url}/app/`, processes: { api: 2, workers: 1 }, rate_limits: 'per process (set REDIS_URL to share them)' });
    expect(children(primary).map((c) => c.role)).toEqual(['api', 'api', 'workers']);
    // One embedded server, owned by the primary.
    expect(readFileSync(path.join(dataDir, 'postgres.owner'), 'utf8').trim()).toBe(String(primary));

    // An API process answers for the workers process's SMPP session.
    expect((await until(() => http('GET', `${url}/ready`), (r) => r.status === 200)).body).toMatchObject({ checks: { carriers: 'ok' } });
    const token = readFileSync(path.join(dataDir, 'admin.token'), 'utf8').trim();
    const created = await http('POST', `${url}/admin/accounts`, token, { business_name: 'Cluster Pty Ltd', email: 'cluster@example.com' });
    const key = created.body.api_key as string;
    const sent = await http('POST', `${url}/send`, key, { to: '0412 345 678', message: 'Hello from an API process' });
    expect(sent.status).toBe(200);
    // Accepted in an API process, submitted and receipted in the workers process.
    const delivered = await until(() => http('GET', `${url}/message/${sent.body.message_id}`, key), (r) => (r.body.message as { status?: string })?.status === 'delivered');
    expect(delivered.status).toBe(200);
    // One scrape adds up every process: the accept was counted in an API process, the submit in the workers one.
    const metrics = await http('GET', `${url}/metrics`, token);
    expect(metric(metrics.text, 'tasman_messages_accepted_total')).toBe(1);
    expect(metric(metrics.text, 'tasman_messages_submitted_total')).toBe(1);
    expect(metrics.text).toContain('tasman_smpp_bind_up{carrier="default"} 1');
    // The operator's carrier view is relayed to the workers process (an API process holds no carriers)...
    const view = await http('GET', `${url}/admin/carriers`, token);
    expect(view.status).toBe(200);
    expect(view.body).toMatchObject({ carriers: [{ id: 'default', state: 'bound' }] });
    // ...and its coded errors come back with their status: no TASMAN_CARRIERS, nothing to reload (409, not 500).
    expect((await http('POST', `${url}/admin/carriers/routes/reload`, token)).status).toBe(409);
    // The simulator route reaches the built-in SMSC in the workers process.
    expect((await http('POST', `${url}/admin/simulator/inbound`, token, { from: '+61412345678', to: '+61480000000', text: 'hi there' })).body).toEqual({ ok: true });

    // A crashed workers process: not ready meanwhile (the API says why), then a new one takes over.
    const [oldWorkers] = children(primary).filter((c) => c.role === 'workers');
    process.kill(oldWorkers!.pid, 'SIGKILL');
    const down = await until(() => http('GET', `${url}/ready`), (r) => r.status === 503);
    expect(down.body.failed).toContain('workers process is not running');
    await until(() => http('GET', `${url}/ready`), (r) => r.status === 200);
    const [newWorkers] = children(primary).filter((c) => c.role === 'workers');
    expect(newWorkers!.pid).not.toBe(oldWorkers!.pid);

    // A crashed API process: once the primary has seen it go, the other serves the port while a new one starts.
    // (A connection the primary hands over in the instant before that is lost: Node's round robin, decision 0020.)
    const [api] = children(primary);
    process.kill(api!.pid, 'SIGKILL');
    await until(() => proc!.logs.some((l) => l.includes('an API process exited')), Boolean);
    expect((await http('GET', `${url}/health`)).status).toBe(200);
    await until(() => children(primary).filter((c) => c.role === 'api').length, (n) => n === 2);

    // Every child at once (an OOM kill of the group, a signal to the children alone): the primary, with no child
    // left to keep it running, waits out the pause and starts each again (it used to exit quietly, database and all).
    const before = children(primary);
    const logged = proc.logs.length;
    for (const c of before) process.kill(c.pid, 'SIGINT');
    await until(() => children(primary).filter((c) => !before.some((b) => b.pid === c.pid)).map((c) => c.role), (roles) => roles.length === 3);
    expect(alive(primary)).toBe(true);
    expect(children(primary).map((c) => c.role)).toEqual(['api', 'api', 'workers']);
    // With no API process left the primary closed the listening socket, and PORT=0 (this test's) gives the new
    // ones a new port: the one they say they listen on. A connection handed to a child as it died is never
    // answered, so each try is bounded and retried.
    const listening = () => proc!.logs.slice(logged).map((l) => /Server listening at (http:\/\/[^"]+)/.exec(l)?.[1]).filter(Boolean).pop();
    const again = (await until(listening, Boolean))!;
    const ready = () => request(`${again}/ready`, { reset: true, headersTimeout: 2_000, bodyTimeout: 2_000 })
      .then(async (res) => { await res.body.dump(); return res.statusCode; }, () => 0);
    await until(ready, (status) => status === 200);

    // SIGTERM stops every child, then the database server, and exits 0.
    const all = children(primary);
    expect(await proc.stop('SIGTERM')).toBe(0);
    proc = null;
    expect(all.filter((c) => alive(c.pid))).toEqual([]);
    expect(livePostmaster(path.join(dataDir, 'postgres'))).toBeNull();
  });
});
