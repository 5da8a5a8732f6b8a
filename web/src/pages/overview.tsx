import { useMemo, type ReactNode } from 'react';
import { Link } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { GET, type Res } from '../lib/api.ts';
import { percent } from '../lib/format.ts';
import { figureLabel } from '../lib/words.ts';
import { When, useZone } from '../zone.tsx';
import { DayChart, dailySeries } from '../chart.tsx';
import { Card, Empty, ErrorText, Loading, Page, Stat } from '../ui.tsx';
import { ServiceStatusList, useServiceStatus } from './status-panel.tsx';

export type Daily = Res<'/report/daily'>;
export type Usage = Res<'/report'>;

/** A figure once loaded; "Unavailable" (explained above the cards) when its call failed, never a "…" that stays. */
function shown<T>(q: { data: T | undefined; isError: boolean }, pick: (d: T) => ReactNode): ReactNode {
  if (q.data !== undefined) return pick(q.data);
  return q.isError ? 'Unavailable' : '…';
}

const sydneyToday = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'Australia/Sydney' }).format(new Date());

/** Reports count Sydney days (the API's `/report`); said when the account's clock is another. */
export function SydneyDays() {
  const zone = useZone();
  if (!zone || zone === 'Australia/Sydney') return null;
  return <p className="text-sm text-slate-700">Days in these figures run midnight to midnight in Sydney (Australia/Sydney), as in every report.</p>;
}

export function OverviewPage() {
  const today = sydneyToday();
  const monthStart = `${today.slice(0, 8)}01`;
  const balance = useQuery({ queryKey: ['balance'], queryFn: () => GET('/balance') });
  const todayReport = useQuery({ queryKey: ['report', today, today], queryFn: () => GET('/report', { params: { query: { from: today, to: today } } }) });
  const month = useQuery({ queryKey: ['report', monthStart, today], queryFn: () => GET('/report', { params: { query: { from: monthStart, to: today } } }) });
  const daily = useQuery({ queryKey: ['daily'], queryFn: () => GET('/report/daily') });
  const inbox = useQuery({ queryKey: ['inbox', 'recent'], queryFn: () => GET('/inbox', { params: { query: { limit: 5 } } }) });
  const status = useServiceStatus();
  const series = useMemo(() => dailySeries(daily.data?.days ?? []), [daily.data]);
  const days = useMemo(() => daily.data?.days.map((d) => d.day) ?? [], [daily.data]);
  const m = month.data?.summary.messages;
  const finals = m ? m.delivered + m.failed : 0;
  const failed = [balance, todayReport, month, daily].filter((q) => q.isError);
  return (
    <Page title="Overview" actions={<Link className="rounded-md bg-blue-700 px-4 py-2 text-sm font-semibold text-white" to="/send">New message</Link>}>
      <ErrorText error={failed[0]?.error} retry={() => Promise.all(failed.map((q) => q.refetch()))} />
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        <Stat label="Balance (credits)" value={shown(balance, (b) => b.credits)} />
        <Stat label="Messages today" value={shown(todayReport, (r) => r.summary.messages.total)} />
        <Stat label="Messages this month" value={shown(month, (r) => r.summary.messages.total)} />
        <Stat label="Delivery rate this month" value={shown(month, () => (finals ? percent(m!.delivered / finals) : '—'))} />
      </div>
      <SydneyDays />
      {m && (
        <Card title="This month by status">
          <dl className="grid grid-cols-2 gap-2 text-sm sm:grid-cols-5">
            {(['total', 'sent', 'delivered', 'failed', 'parts'] as const).map((k) => (
              <div key={k}><dt className="text-slate-600">{figureLabel(k)}</dt><dd className="text-lg font-semibold">{m[k]}</dd></div>
            ))}
          </dl>
        </Card>
      )}
      <Card title="Last 30 days">
        {daily.isPending ? <Loading /> : daily.data && daily.data.days.some((d) => d.total > 0)
          ? <DayChart days={days} series={series} title="Messages sent, delivered and failed per day over the last 30 days" />
          : <Empty>No messages in the last 30 days yet.</Empty>}
      </Card>
      <Card title="Carrier status">
        {status.data ? <ServiceStatusList status={status.data} /> : status.error ? <ErrorText error={status.error} retry={() => status.refetch()} /> : <Loading />}
      </Card>
      <Card title="Recent replies">
        {inbox.isPending ? <Loading /> : inbox.error ? <ErrorText error={inbox.error} retry={() => inbox.refetch()} /> : inbox.data.messages.length > 0 ? (
          <ul className="divide-y divide-slate-200">
            {inbox.data.messages.map((m) => (
              <li key={m.id} className="py-2 text-sm">
                <span className="font-semibold">{m.from}</span> <span className="text-slate-600"><When iso={m.received_at} /></span>
                <p>{m.body ?? '(removed by retention)'}{m.is_optout && <strong className="ml-2 text-red-800">opt-out</strong>}</p>
              </li>
            ))}
          </ul>
        ) : <Empty>No replies yet. They appear here and in the <Link className="underline" to="/inbox">Inbox</Link>.</Empty>}
      </Card>
    </Page>
  );
}
