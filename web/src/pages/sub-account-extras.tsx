import { useMemo, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { GET, POST } from '../lib/api.ts';
import { DayChart, dailySeries } from '../chart.tsx';
import { Button, Card, Empty, ErrorText, Loading, Notice, Select } from '../ui.tsx';


/** A sub-account's dedicated numbers: move the parent's to it, or take them back (with the billing permission, as the API). */
export function SubNumbers({ id, canBilling, managed }: { id: string; canBilling: boolean; managed: boolean }) {
  const qc = useQueryClient();
  const [pick, setPick] = useState('');
  const theirs = useQuery({ queryKey: ['sub', id, 'numbers'], queryFn: () => GET('/account/{id}/numbers', { params: { path: { id } } }) });
  const mine = useQuery({ queryKey: ['numbers'], queryFn: () => GET('/numbers') });
  const done = () => { void qc.invalidateQueries({ queryKey: ['sub', id, 'numbers'] }); void qc.invalidateQueries({ queryKey: ['numbers'] }); };
  const assign = useMutation({ mutationFn: (n: string) => POST('/account/{id}/numbers/assign', { params: { path: { id } }, body: { numbers: [n] } }).then(() => n), onSuccess: () => { setPick(''); done(); } });
  const recall = useMutation({ mutationFn: (n: string) => POST('/account/{id}/numbers/recall', { params: { path: { id } }, body: { numbers: [n] } }).then(() => n), onSuccess: done });
  const allowed = canBilling && managed;
  return (
    <Card title="Numbers">
      {!canBilling && <p className="mb-2 text-sm">Moving numbers needs permission to move credits and buy numbers: ask an admin or the owner.</p>}
      <ErrorText error={theirs.error ?? assign.error ?? recall.error} />
      {assign.data && <Notice>Moved {assign.data} to this sub-account.</Notice>}
      {recall.data && <Notice>Took {recall.data} back.</Notice>}
      {theirs.isPending ? <Loading /> : theirs.data && theirs.data.numbers.length > 0 ? (
        <ul className="my-3 divide-y divide-slate-200" aria-label="This sub-account's numbers">
          {theirs.data.numbers.map((n) => (
            <li key={n.number} className="flex items-center justify-between gap-3 py-2 text-sm">
              <span>{n.number} · {n.country} · ${n.price_monthly.toFixed(2)} a month</span>
              <Button kind="secondary" disabled={!allowed || recall.isPending} aria-label={`Take ${n.number} back`} onClick={() => recall.mutate(n.number)}>Take back</Button>
            </li>
          ))}
        </ul>
      ) : <div className="my-3"><Empty>No dedicated numbers: it sends from the shared number.</Empty></div>}
      <form className="flex flex-col gap-3 sm:flex-row sm:items-end" onSubmit={(e) => { e.preventDefault(); if (pick) assign.mutate(pick); }}>
        <Select label="Give it one of your numbers" value={pick} onChange={(e) => setPick(e.target.value)} disabled={!allowed}>
          <option value="">Choose a number</option>
          {mine.data?.numbers.map((n) => <option key={n.number} value={n.number}>{n.number}</option>)}
        </Select>
        <Button type="submit" disabled={!allowed || !pick || assign.isPending}>Move number</Button>
      </form>
    </Card>
  );
}

/** The sub-account's last 30 days by day, the Overview's chart for one sub-account. */
export function SubChart({ id }: { id: string }) {
  const daily = useQuery({ queryKey: ['sub', id, 'daily'], queryFn: () => GET('/account/{id}/report/daily', { params: { path: { id } } }) });
  const days = useMemo(() => daily.data?.days.map((d) => d.day) ?? [], [daily.data]);
  const series = useMemo(() => dailySeries(daily.data?.days ?? []), [daily.data]);
  const totals = daily.data?.days.reduce((t, d) => ({ total: t.total + d.total, delivered: t.delivered + d.delivered, failed: t.failed + d.failed }), { total: 0, delivered: 0, failed: 0 });
  return (
    <Card title="Last 30 days">
      <ErrorText error={daily.error} />
      {daily.isPending ? <Loading /> : totals && totals.total > 0 ? (
        <>
          <p className="mb-2 text-sm">{totals.total} messages, {totals.delivered} delivered, {totals.failed} failed.</p>
          <DayChart days={days} series={series} title="This sub-account's messages sent, delivered and failed per day over the last 30 days" />
        </>
      ) : <Empty>No messages in the last 30 days.</Empty>}
    </Card>
  );
}
