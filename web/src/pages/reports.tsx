import { useMemo, useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { ApiError, GET, type QueryOf } from '../lib/api.ts';
import { downloadCsv } from '../lib/format.ts';
import { figureLabel } from '../lib/words.ts';
import { DayChart } from '../chart.tsx';
import { Button, Card, ErrorText, Input, Loading, Page, Select } from '../ui.tsx';
import { SydneyDays } from './overview.tsx';

interface Form { from: string; to: string; direction: string; status: string; country: string; keyword: string; number: string }
// The selects offer only the values the API takes ('' is no filter, left out of the query).
type ReportQuery = QueryOf<'/report'>;

export default function ReportsPage() {
  const [draft, setDraft] = useState<Form>({ from: '', to: '', direction: 'all', status: '', country: '', keyword: '', number: '' });
  const [form, setForm] = useState<Form>(draft);
  const report = useQuery({ queryKey: ['report', form], queryFn: () => GET('/report', { params: { query: form as ReportQuery } }) });
  // The chart and its CSV take the report's filters too, so they count what the summary counts.
  const daily = useQuery({ queryKey: ['daily', form], queryFn: () => GET('/report/daily', { params: { query: form as ReportQuery } }) });
  const err = report.error instanceof ApiError ? report.error : null;
  const set = (k: keyof Form) => (e: { target: { value: string } }) => setDraft({ ...draft, [k]: e.target.value });
  const days = useMemo(() => daily.data?.days.map((d) => d.day) ?? [], [daily.data]);
  const series = useMemo(() => [
    { label: 'Sent', color: '#1d4ed8', values: daily.data?.days.map((d) => d.sent) ?? [] },
    { label: 'Delivered', color: '#15803d', values: daily.data?.days.map((d) => d.delivered) ?? [] },
    { label: 'Failed', color: '#b91c1c', values: daily.data?.days.map((d) => d.failed) ?? [] },
    { label: 'Inbound', color: '#7c3aed', values: daily.data?.days.map((d) => d.inbound) ?? [] },
  ], [daily.data]);
  const submit = (e: FormEvent) => { e.preventDefault(); setForm(draft); };
  const s = report.data?.summary;
  return (
    <Page title="Reports">
      <SydneyDays />
      <form onSubmit={submit} className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4 lg:items-end">
        <Input label="From" type="date" value={draft.from} onChange={set('from')} error={err?.forField('from')} />
        <Input label="To" type="date" value={draft.to} onChange={set('to')} error={err?.forField('to')} />
        <Select label="Direction" value={draft.direction} onChange={set('direction')}>
          <option value="all">All</option><option value="outbound">Outbound</option><option value="inbound">Inbound</option>
        </Select>
        <Select label="Status" value={draft.status} onChange={set('status')}>
          <option value="">Any</option>{['queued', 'sent', 'delivered', 'failed'].map((x) => <option key={x}>{x}</option>)}
        </Select>
        <Select label="Country" value={draft.country} onChange={set('country')}>
          <option value="">Any</option><option value="AU">Australia</option><option value="NZ">New Zealand</option>
        </Select>
        <Input label="Keyword" value={draft.keyword} onChange={set('keyword')} />
        <Input label="Number (E.164)" value={draft.number} onChange={set('number')} error={err?.forField('number')} />
        <Button type="submit">Run report</Button>
      </form>
      {err && !err.details.length && <ErrorText error={err} />}
      {report.isPending ? <Loading /> : s && (
        <Card title={`${report.data!.from} to ${report.data!.to}`}>
          <dl className="grid grid-cols-2 gap-3 text-sm sm:grid-cols-4">
            {Object.entries({ ...s.messages, credits_consumed: s.credits_consumed, inbound: s.inbound, optouts: s.optouts }).map(([k, v]) => (
              <div key={k}><dt className="text-slate-600">{figureLabel(k)}</dt><dd className="text-xl font-semibold">{v}</dd></div>
            ))}
          </dl>
          <div className="mt-4">
            <Button kind="secondary" onClick={() => downloadCsv(`report-${report.data!.from}-${report.data!.to}.csv`,
              ['day', 'total', 'sent', 'delivered', 'failed', 'inbound'], (daily.data?.days ?? []).map((d) => [d.day, d.total, d.sent, d.delivered, d.failed, d.inbound]))}>
              Download CSV
            </Button>
          </div>
        </Card>
      )}
      <Card title="By day">
        {daily.data ? <DayChart days={days} series={series} title="Messages sent, delivered and failed, and inbound messages, per day" /> : <Loading />}
      </Card>
    </Page>
  );
}
