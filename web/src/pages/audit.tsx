import { useState, type FormEvent } from 'react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { createColumnHelper } from '@tanstack/react-table';
import { GET, type QueryOf, type Res } from '../lib/api.ts';
import { downloadCsv } from '../lib/format.ts';
import { zonedToIso } from '../lib/zoned.ts';
import { useZone, When } from '../zone.tsx';
import type { SessionInfo } from '../session.ts';
import { Button, Card, DataTable, ErrorText, Input, Loading, Page, Pager, Select } from '../ui.tsx';

// The account's audit log (GET /audit, docs/audit-log.md): who changed what, from where, and refused attempts.
// Read-only: entries cannot be changed or deleted. The CSV export is built here from the filtered pages.

type Entry = Res<'/audit'>['entries'][number];
interface Filters { account_id: string; actor: string; action: string; target: string; outcome: string; from: string; to: string }

const EMPTY: Filters = { account_id: '', actor: '', action: '', target: '', outcome: '', from: '', to: '' };
const PAGE = 50;
/** The export reads at most this many entries (20 requests of 500): narrow the filters for more. */
const EXPORT_MAX = 10_000;
const WHO: Record<string, string> = { user: 'User', key: 'API key', operator: 'Operator', system: 'Tasman', anonymous: 'Unknown' };

const who = (e: Entry) => `${e.actor.label ?? e.actor.id ?? ''}${e.actor.type === 'operator' ? '' : ` (${WHO[e.actor.type] ?? e.actor.type})`}`;
const target = (e: Entry) => (e.target ? `${e.target.type.replace(/_/g, ' ')} ${e.target.id ?? ''}`.trim() : '');
const show = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));

/** "field: old → new" for each changed field; a creation or a removal shows one side. */
function changes(e: Entry): string[] {
  const names = [...new Set([...Object.keys(e.before ?? {}), ...Object.keys(e.after ?? {})])];
  return names.map((n) => {
    const had = e.before && n in e.before;
    const has = e.after && n in e.after;
    if (had && has) return `${n}: ${show(e.before![n])} → ${show(e.after![n])}`;
    return had ? `${n} was ${show(e.before![n])}` : `${n}: ${show(e.after![n])}`;
  });
}

/** The API's query for the filters: dates are whole days in the account's time zone, `to` included. */
function toQuery(f: Filters, zone: string): QueryOf<'/audit'> {
  const day = (d: string, next: boolean) => {
    if (!d) return undefined;
    const start = new Date(`${d}T00:00:00Z`);
    if (next) start.setUTCDate(start.getUTCDate() + 1);
    return zonedToIso(`${start.toISOString().slice(0, 10)}T00:00`, zone) ?? undefined;
  };
  return {
    account_id: f.account_id || undefined, actor: f.actor.trim() || undefined, action: f.action.trim() || undefined,
    target: f.target.trim() || undefined, outcome: (f.outcome || undefined) as QueryOf<'/audit'>['outcome'], from: day(f.from, false), to: day(f.to, true),
  };
}

export default function AuditPage({ session }: { session: SessionInfo }) {
  const zone = useZone() ?? 'Australia/Sydney';
  const [draft, setDraft] = useState<Filters>(EMPTY);
  const [filters, setFilters] = useState<Filters>(EMPTY);
  // Keyset paging: the cursors of the pages seen so far, so Previous works too.
  const [cursors, setCursors] = useState<Array<string | undefined>>([undefined]);
  const page = cursors.length - 1;
  const query = toQuery(filters, zone);
  const list = useQuery({
    queryKey: ['audit', query, cursors[page]],
    queryFn: () => GET('/audit', { params: { query: { ...query, limit: PAGE, cursor: cursors[page] } } }),
  });
  const parent = session.account.hierarchy_enabled && !session.account.parent_account_id;
  const subs = useQuery({
    queryKey: ['accounts'], enabled: parent,
    queryFn: () => GET('/accounts'),
  });
  const exporter = useMutation({
    mutationFn: async () => {
      const all: Entry[] = [];
      let cursor: string | undefined;
      do {
        const got = await GET('/audit', { params: { query: { ...query, limit: 500, cursor } } });
        all.push(...got.entries);
        cursor = got.next_cursor ?? undefined;
      } while (cursor && all.length < EXPORT_MAX);
      downloadCsv('audit-log.csv',
        ['time', 'actor_type', 'actor_id', 'actor', 'source_address', 'action', 'target_type', 'target_id', 'outcome', 'reason', 'before', 'after'],
        all.map((e) => [e.created_at, e.actor.type, e.actor.id, e.actor.label, e.source_address, e.action, e.target?.type ?? null, e.target?.id ?? null,
          e.outcome, e.reason, e.before ? JSON.stringify(e.before) : null, e.after ? JSON.stringify(e.after) : null]));
      return { count: all.length, more: !!cursor };
    },
  });
  const apply = (e: FormEvent) => { e.preventDefault(); setFilters(draft); setCursors([undefined]); };
  const set = (name: keyof Filters) => (e: { target: { value: string } }) => setDraft({ ...draft, [name]: e.target.value });

  const col = createColumnHelper<Entry>();
  const columns = [
    col.accessor('created_at', { header: 'When', cell: (c) => <When iso={c.getValue()} /> }),
    col.display({
      id: 'who', header: 'Who',
      cell: (c) => <><span className="break-all">{who(c.row.original)}</span>{c.row.original.source_address && <span className="block text-xs text-slate-600">from {c.row.original.source_address}</span>}</>,
    }),
    col.accessor('action', { header: 'Action', cell: (c) => <code className="text-xs">{c.getValue()}</code> }),
    col.display({ id: 'target', header: 'Target', cell: (c) => <span className="break-all text-xs">{target(c.row.original)}</span> }),
    col.accessor('outcome', {
      header: 'Outcome',
      cell: (c) => (c.getValue() === 'ok' ? 'Done'
        : <span className="rounded bg-red-100 px-2 py-0.5 text-red-900">Refused{c.row.original.reason ? ` (${c.row.original.reason})` : ''}</span>),
    }),
    col.display({
      id: 'changes', header: 'Changes',
      cell: (c) => <ul className="space-y-0.5 text-xs">{changes(c.row.original).map((line) => <li key={line} className="break-all">{line}</li>)}</ul>,
    }),
  ];
  return (
    <Page title="Audit log" actions={
      <Button kind="secondary" disabled={exporter.isPending} onClick={() => exporter.mutate()}>{exporter.isPending ? 'Exporting…' : 'Export CSV'}</Button>
    }>
      <p className="text-sm text-slate-700">
        Every change to keys, webhooks, the team, credits, numbers, opt-outs, sub-accounts and settings, every sign-in, and
        every refused attempt, with who did it and from where. Entries cannot be changed or deleted; they are kept for 400 days.
      </p>
      <Card title="Filters">
        <form onSubmit={apply} className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4" noValidate>
          {parent && (
            <Select label="Account" value={draft.account_id} onChange={set('account_id')}>
              <option value="">This account</option>
              {(subs.data?.accounts ?? []).filter((a) => a.parent_account_id).map((a) => <option key={a.id} value={a.id}>{a.business_name}</option>)}
            </Select>
          )}
          <Input label="Who" value={draft.actor} onChange={set('actor')} hint="An email, a key prefix (tsm_…) or an id" />
          <Input label="Action" value={draft.action} onChange={set('action')} hint="key.created, or key for every key action" />
          <Input label="Target" value={draft.target} onChange={set('target')} hint="An id, a number, or a kind (api_key)" />
          <Select label="Outcome" value={draft.outcome} onChange={set('outcome')}>
            <option value="">Any</option>
            <option value="ok">Done</option>
            <option value="refused">Refused</option>
          </Select>
          <Input label="From" type="date" value={draft.from} onChange={set('from')} />
          <Input label="To" type="date" value={draft.to} onChange={set('to')} hint={`Whole days in ${zone}`} />
          <div className="flex items-end gap-2">
            <Button type="submit">Apply</Button>
            <Button type="button" kind="secondary" onClick={() => { setDraft(EMPTY); setFilters(EMPTY); setCursors([undefined]); }}>Clear</Button>
          </div>
        </form>
      </Card>
      {exporter.data && (
        <p role="status" className="text-sm text-slate-700">
          Exported {exporter.data.count} {exporter.data.count === 1 ? 'entry' : 'entries'}{exporter.data.more ? ` (the first ${EXPORT_MAX}: narrow the filters for the rest)` : ''}.
        </p>
      )}
      <ErrorText error={list.error ?? exporter.error} />
      {list.isPending ? <Loading /> : <DataTable data={list.data?.entries ?? []} columns={columns} caption="Audit log entries, newest first" empty="No entries match these filters." />}
      <Pager page={page} hasNext={!!list.data?.next_cursor}
        onPage={(p) => setCursors(p > page ? [...cursors, list.data!.next_cursor ?? undefined] : cursors.slice(0, p + 1))} />
    </Page>
  );
}
