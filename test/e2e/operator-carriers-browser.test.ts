// The operator console's carriers panel in Debian's Chromium against a real `tasman start` whose carrier (the npm
// `smpp` SMSC in a process, test/carrier/npm-smsc-process.mjs) takes 2 submit_sm a second and throttles the rest,
// with SMPP_TPS=20: while a batch goes out, the bind shows the rate it settled at, "throttled now" and its
// throttles, live, as GET /admin/carriers and /metrics say.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTasmanInChromium } from '../support/browser-app.ts';
import { haveChromium, seriousViolations } from '../support/browser.ts';
import { pollUntil } from '../support/poll.ts';
import { npmSmscProcess, type SmscProcess } from '../support/smsc-process.ts';

type Bind = { tps: number | null; throttled: number; throttled_now: boolean };

describe.skipIf(!haveChromium)('the carriers panel shows each bind\'s pace and throttling', () => {
  const cleanups: Array<() => Promise<unknown>> = [];
  let smsc: SmscProcess;
  beforeAll(async () => { smsc = await npmSmscProcess((c) => { cleanups.push(c); }, { SMSC_TPS_LIMIT: '2', SMSC_RECEIPTS: '0' }); }, 90_000);
  afterAll(async () => { for (const c of cleanups.reverse()) await c(); });
  const s = useTasmanInChromium('tasman-throttle-', () => ({ SMPP_HOST: '127.0.0.1', SMPP_PORT: String(smsc.port), SMPP_TPS: '20' }));

  const operator = async (path: string) => {
    const res = await fetch(`${s.proc.url}${path}`, { headers: { authorization: `Bearer ${s.adminToken()}` } });
    expect(res.status, path).toBe(200);
    return path === '/metrics' ? res.text() : res.json() as Promise<unknown>;
  };
  const bind = async () => ((await operator('/admin/carriers')) as { carriers: Array<{ id: string; binds: Bind[] }> }).carriers.find((c) => c.id === 'default')!.binds[0]!;

  it('while the SMSC throttles a batch: the settled rate, "throttled now" and the throttles, in the panel, the API and /metrics', async () => {
    const page = s.page;
    await page.goto(`${s.proc.url}/operator`);
    await page.getByRole('button', { name: 'Use the operator token instead' }).click();
    await page.getByLabel('Operator token').fill(s.adminToken());
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Operator console' }).waitFor();
    const row = page.getByRole('list', { name: 'Carriers' }).getByRole('listitem').filter({ hasText: 'default' })
      .getByRole('table', { name: 'Binds of default' }).getByRole('row', { name: /^#0 / });
    await row.getByText('bound', { exact: true }).waitFor();
    // Before any throttle: the configured rate, not throttled.
    await row.getByText('not now').waitFor();
    await row.getByText('0 throttles since start').waitFor();
    expect(await bind()).toMatchObject({ tps: 20, throttled: 0, throttled_now: false });

    // 60 messages at the SMSC's 2 a second: half a minute of throttling.
    const created = await (await fetch(`${s.proc.url}/admin/accounts`, {
      method: 'POST', headers: { authorization: `Bearer ${s.adminToken()}`, 'content-type': 'application/json' },
      body: JSON.stringify({ business_name: 'Harbour Cafe', email: 'throttle@harbour.test', credits: 100 }),
    })).json() as { api_key: string };
    const recipients = Array.from({ length: 60 }, (_, i) => `+614123${String(i).padStart(5, '0')}`);
    const batch = await fetch(`${s.proc.url}/send-batch`, {
      method: 'POST', headers: { authorization: `Bearer ${created.api_key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ recipients, message: 'Your table is ready' }),
    });
    expect(batch.status).toBe(200);

    const throttled = await pollUntil(bind, (b) => b.throttled_now && b.throttled > 0, 'the bind throttled', 60_000);
    expect(throttled.tps).toBeLessThan(20);
    // The panel refreshes by itself (every 5 s): the same bind, in words.
    await row.getByText('throttled now').waitFor({ timeout: 60_000 });
    await row.getByText(/^[1-9]\d* throttles? since start$/).waitFor();
    const shownRate = Number((await row.getByRole('cell').nth(7).textContent())?.trim());
    expect(shownRate).toBeGreaterThanOrEqual(1);
    expect(shownRate).toBeLessThan(20);
    expect(await seriousViolations(page)).toEqual([]);
    const metrics = await operator('/metrics') as string;
    expect(metrics).toMatch(/tasman_carrier_bind_throttled\{carrier="default",bind="0"\} [1-9]/);
    expect(metrics).toMatch(/tasman_carrier_bind_tps\{carrier="default",bind="0"\} \d/);
    expect(metrics).toContain('tasman_carrier_bind_throttled_now{carrier="default",bind="0"} 1');
    // Nothing was failed for being throttled.
    expect(smsc.lines.filter((l) => l.startsWith('THROTTLED')).length).toBeGreaterThan(0);
  });
});
