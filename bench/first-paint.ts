/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// First paint of the built dashboard in Debian's Chromium on loopback, against a real `tasman start`: each round
// opens a fresh browser context (empty cache, as a first visit) and measures
// - the sign-in page (/app/login): first contentful paint, and when its Sign in button is on screen;
// - the signed-in Overview (/app/): first contentful paint, and the first meaningful paint, taken as the moment the
//   balance from GET /balance is on screen (the page's own data, not its frame);
// - the baseline: a one-heading static HTML page from a bare Node server on the same loopback, in the same browser,
//   which is what the machine needs to paint anything at all. Rounds alternate the three; medians are printed.
// Usage: flock /tmp/tasman-bench.lock npx tsx bench/first-paint.ts   (BENCH_ROUNDS, default 15; DATABASE_URL optional)
import { rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { buildDashboard, launchChromium } from '../test/support/browser.ts';
import { benchSetup, call, startTasmanProcess } from './tasman-process.ts';

type Ready = 'heading' | 'sign-in' | 'balance';
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 15);
const PASSWORD = 'harbour-lights-at-seven';
const { databaseUrl, dataDir, print } = benchSetup('first-paint');
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return Number((s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2).toFixed(1));
};

buildDashboard();
// The operator token given, not read from DATA_DIR (a server on DATABASE_URL does not write one there).
const token = `bench-${process.pid}-operator-token`;
const proc = await startTasmanProcess({ DATA_DIR: dataDir, TASMAN_ADMIN_TOKEN: token, ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) });
const baseline = createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end('<!doctype html><html lang="en"><title>Baseline</title><h1>Overview</h1>');
});
await new Promise<void>((r) => baseline.listen(0, '127.0.0.1', r));
const baselineUrl = `http://127.0.0.1:${(baseline.address() as AddressInfo).port}/`;
let browser: Browser | undefined;

try {
  const created = await call('POST', `${proc.url}/admin/accounts`, token, { business_name: 'Paint Cafe', email: 'paint@bench.test', credits: 100 });
  const invite = new URL(created.json.owner_invite_url as string).hash.slice(1);
  const accepted = await fetch(`${proc.url}/invites/accept`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token: invite, password: PASSWORD }),
  });
  const cookie = /tasman_session=([^;]+)/.exec(accepted.headers.get('set-cookie') ?? '')?.[1];
  if (!cookie) throw new Error(`no session cookie from the invite (${accepted.status})`);
  browser = await launchChromium();
  const origin = new URL(proc.url);

  /** One cold visit: FCP from the paint timeline, and performance.now() once `ready` holds (polled every frame). */
  async function visit(url: string, ready: Ready, signedIn: boolean) {
    const context = await browser!.newContext({ viewport: { width: 1280, height: 900 } });
    if (signedIn) await context.addCookies([{ name: 'tasman_session', value: cookie!, domain: origin.hostname, path: '/', httpOnly: true, sameSite: 'Lax' }]);
    const page = await context.newPage();
    await page.goto(url, { waitUntil: 'commit' });
    // A function, not a string: the dashboard's CSP forbids evaluating strings.
    const readyAt = await (await page.waitForFunction((which: Ready) => {
      const h1 = [...document.querySelectorAll('h1')].some((h) => h.textContent === 'Overview');
      const ok = which === 'heading' ? h1
        : which === 'sign-in' ? [...document.querySelectorAll('button')].some((b) => b.textContent === 'Sign in')
          : h1 && [...document.querySelectorAll('p')].some((p) => p.textContent === 'Balance (credits)' && /^\d+$/.test(p.nextElementSibling?.textContent ?? ''));
      return ok && performance.now();
    }, ready, { polling: 'raf', timeout: 30_000 })).jsonValue() as number;
    const fcp = await page.waitForFunction(() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? false, undefined, { timeout: 30_000 });
    const result = { fcp: (await fcp.jsonValue()) as number, ready: readyAt };
    await context.close();
    return result;
  }

  const balanceShown: Ready = 'balance';
  const signInShown: Ready = 'sign-in';
  const figures = { baseline: [] as number[], loginFcp: [] as number[], loginReady: [] as number[], overviewFcp: [] as number[], overviewReady: [] as number[] };
  // One warm-up of each (the server's first requests, Chromium's first context), not counted.
  await visit(baselineUrl, 'heading', false);
  await visit(`${proc.url}/app/login`, signInShown, false);
  await visit(`${proc.url}/app/`, balanceShown, true);
  for (let round = 0; round < ROUNDS; round++) {
    // Alternate the order so that neither page always follows the other.
    const order = round % 2 === 0 ? ['baseline', 'login', 'overview'] : ['overview', 'login', 'baseline'];
    for (const which of order) {
      if (which === 'baseline') figures.baseline.push((await visit(baselineUrl, 'heading', false)).fcp);
      if (which === 'login') {
        const r = await visit(`${proc.url}/app/login`, signInShown, false);
        figures.loginFcp.push(r.fcp); figures.loginReady.push(r.ready);
      }
      if (which === 'overview') {
        const r = await visit(`${proc.url}/app/`, balanceShown, true);
        figures.overviewFcp.push(r.fcp); figures.overviewReady.push(r.ready);
      }
    }
  }
  const base = median(figures.baseline);
  print({ bench: 'first_paint_baseline', rounds: ROUNDS, fcp_ms: base });
  print({ bench: 'first_paint_login', rounds: ROUNDS, fcp_ms: median(figures.loginFcp), sign_in_button_ms: median(figures.loginReady), fcp_ratio_to_baseline: Number((median(figures.loginFcp) / base).toFixed(2)) });
  print({
    bench: 'first_paint_overview', rounds: ROUNDS, fcp_ms: median(figures.overviewFcp), balance_shown_ms: median(figures.overviewReady),
    fcp_ratio_to_baseline: Number((median(figures.overviewFcp) / base).toFixed(2)), max_balance_shown_ms: Number(Math.max(...figures.overviewReady).toFixed(1)),
  });
} finally {
  await browser?.close();
  baseline.close();
  await proc.stop('SIGTERM');
  rmSync(dataDir, { recursive: true, force: true });
}
