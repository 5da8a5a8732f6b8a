// deploy/prometheus/alerts.yml against what Tasman exports: every metric an alert reads is on /metrics, every alert
// has its runbook section in docs/operations.md, and the metrics added for alerts read what they say.
// (promtool checks the rules' syntax and behaviour: .ci/run.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { ADMIN_TOKEN, createTestApp, type TestApp } from '../support/app.ts';
import { scratchDatabaseForFile } from '../support/scratch-db.ts';
import { changeCredits, mismatchedAccounts } from '../../src/modules/credits/ledger.repo.ts';
import { uuidv7 } from '../../src/platform/ids.ts';

const read = (file: string) => readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8');
const rules = read('deploy/prometheus/alerts.yml');

/** Every alert's name and the metric names its expression reads. */
function alerts(): Array<{ name: string; metrics: string[] }> {
  return rules.split(/^\s*- alert: /m).slice(1).map((block) => ({
    name: block.slice(0, block.indexOf('\n')).trim(),
    metrics: [...new Set(/expr:([\s\S]*?)\n\s*(?:for|labels):/.exec(block)![1]!.match(/\btasman_[a-z_]+/g) ?? [])],
  }));
}

describe('alerting rules', () => {
  let t: TestApp;
  beforeAll(async () => { t = await createTestApp(); });
  afterAll(async () => { await t.close(); });

  it('read only metrics that GET /metrics exports', async () => {
    const page = (await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })).body;
    const exported = new Set([...page.matchAll(/^# TYPE (\S+) /gm)].map((m) => m[1]!));
    const named = alerts();
    expect(named.map((a) => a.name)).toEqual([
      'TasmanMessageQueueStalled', 'TasmanCarrierUnbound', 'TasmanWebhookFailureRate', 'TasmanDatabaseUnavailable',
      'TasmanHttp5xxRate', 'TasmanCreditLedgerMismatch',
    ]);
    for (const alert of named) {
      expect(alert.metrics.length, alert.name).toBeGreaterThan(0);
      expect(alert.metrics.filter((m) => !exported.has(m)), alert.name).toEqual([]);
    }
    // The database answers here, and the gauge says so.
    expect(page).toMatch(/^tasman_database_up 1$/m);
  });

  it('each have a runbook section in docs/operations.md, which their runbook annotation names', () => {
    const operations = read('docs/operations.md');
    for (const { name } of alerts()) {
      expect(operations, name).toMatch(new RegExp(`^#### ${name}$`, 'm'));
      expect(rules).toContain(`runbook: "docs/operations.md#${name.toLowerCase()}"`);
    }
  });
});

describe('the credit ledger check', () => {
  const database = scratchDatabaseForFile();

  it('counts the accounts whose balance is not the sum of their ledger', async () => {
    const db = database().db;
    const account = async () => {
      const id = uuidv7();
      await db.execute(sql`insert into accounts (id, business_name) values (${id}, 'Ledger Pty Ltd')`);
      return id;
    };
    const [a, b] = [await account(), await account()];
    await changeCredits(db, { accountId: a, delta: 5, kind: 'grant' });
    await changeCredits(db, { accountId: a, delta: -2, kind: 'send' });
    await changeCredits(db, { accountId: b, delta: 3, kind: 'grant' });
    expect(await mismatchedAccounts(db)).toBe(0);
    // A balance written outside the ledger, and an account with credits but no ledger row at all.
    await db.execute(sql`update accounts set credits = credits + 1 where id = ${b}`);
    const c = await account();
    await db.execute(sql`update accounts set credits = 4 where id = ${c}`);
    expect(await mismatchedAccounts(db)).toBe(2);
  });
});
