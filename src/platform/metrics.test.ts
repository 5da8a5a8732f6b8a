import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { createMetrics } from './metrics.ts';

interface Panel { title: string; targets?: Array<{ expr: string }> }

/** Every series name a registry exposes: a histogram's as its _bucket, _sum and _count. */
async function seriesNames(): Promise<Set<string>> {
  const metrics = createMetrics();
  const names = new Set<string>();
  for (const m of await metrics.registry.getMetricsAsJSON()) {
    if (String(m.type) === 'histogram') for (const s of ['_bucket', '_sum', '_count']) names.add(`${m.name}${s}`);
    else names.add(m.name);
  }
  return names;
}

describe('metric names', () => {
  it('has every metric operations relies on, and the default process metrics', async () => {
    const names = await seriesNames();
    for (const name of [
      'tasman_http_requests_total', 'tasman_http_request_duration_seconds_bucket', 'tasman_messages_accepted_total',
      'tasman_messages_submitted_total', 'tasman_receipts_total', 'tasman_queue_depth', 'tasman_queue_oldest_age_seconds',
      'tasman_webhook_deliveries_total', 'tasman_smpp_bind_up', 'process_cpu_seconds_total', 'process_resident_memory_bytes',
      'nodejs_heap_size_used_bytes',
    ]) expect(names, name).toContain(name);
  });

  it('the sample Grafana dashboard (docs/grafana-dashboard.json) queries only metrics Tasman exposes', async () => {
    const dashboard = JSON.parse(readFileSync(new URL('../../docs/grafana-dashboard.json', import.meta.url), 'utf8')) as { panels: Panel[] };
    const names = await seriesNames();
    const used = dashboard.panels.flatMap((p) => (p.targets ?? []).flatMap((t) => t.expr.match(/\b(?:tasman|process|nodejs)_[a-z_]+/g) ?? []));
    expect(used.length).toBeGreaterThanOrEqual(9);
    expect(used.filter((n) => !names.has(n))).toEqual([]);
  });
});
