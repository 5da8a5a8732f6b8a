import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { createColumnHelper } from '@tanstack/react-table';
import { ApiError, DELETE, GET, POST, type Res } from '../lib/api.ts';
import { When } from '../zone.tsx';
import { Button, Card, DataTable, ErrorText, Input, Loading, Notice, Page, Pager } from '../ui.tsx';

type Optout = Res<'/optouts'>['optouts'][number];
const PAGE = 50;
const HOW: Record<string, string> = { keyword: 'replied STOP', link: 'opt-out link', api: 'added by you' };

export default function OptoutsPage() {
  const qc = useQueryClient();
  const [page, setPage] = useState(0);
  const [filter, setFilter] = useState('');
  const [number, setNumber] = useState('');
  const q = useQuery({ queryKey: ['optouts'], queryFn: () => GET('/optouts') });
  const add = useMutation({
    mutationFn: () => POST('/optouts', { body: { number } }),
    onSuccess: () => { setNumber(''); void qc.invalidateQueries({ queryKey: ['optouts'] }); },
  });
  const remove = useMutation({
    // The number in any accepted form (the client encodes its + in the path).
    mutationFn: (o: Optout) => DELETE('/optouts/{number}', { params: { path: { number: o.number } } }).then(() => o),
    onSuccess: () => { void qc.invalidateQueries({ queryKey: ['optouts'] }); },
  });
  const all = (q.data?.optouts ?? []).filter((o) => o.number.includes(filter.replace(/\s/g, '')));
  const rows = all.slice(page * PAGE, (page + 1) * PAGE);
  const col = createColumnHelper<Optout>();
  const columns = [
    col.accessor('number', { header: 'Number' }),
    col.accessor('created_at', { header: 'Opted out', cell: (c) => <When iso={c.getValue()} /> }),
    col.accessor('source', { header: 'How', cell: (c) => HOW[c.getValue()] ?? c.getValue() }),
    col.accessor('inbound_body', { header: 'Their reply', cell: (c) => c.getValue() ?? '' }),
    col.display({
      id: 'remove', header: 'Remove',
      cell: (c) => <Button kind="secondary" disabled={remove.isPending} aria-label={`Remove ${c.row.original.number} from the list`}
        onClick={() => { if (confirm(`Send to ${c.row.original.number} again? Only do this if they asked to hear from you again.`)) remove.mutate(c.row.original); }}>Remove</Button>,
    }),
  ];
  const addError = add.error instanceof ApiError ? (add.error.forField('number') ?? add.error.message) : undefined;
  const submit = (e: FormEvent) => { e.preventDefault(); add.mutate(); };
  return (
    <Page title="Opt-outs" actions={
      // The server's export: the audit of every opt-out and removal, with the reply text (RFC 4180, formula-safe).
      <a className="rounded-md border border-slate-400 bg-white px-4 py-2 text-sm font-semibold hover:bg-slate-100" href="/optouts/export" download="optouts.csv">Export CSV</a>
    }>
      <p className="text-sm text-slate-700">Numbers that replied STOP (or used an opt-out link) are never sent to again; their scheduled messages are cancelled and refunded.</p>
      <Card title="Add a number">
        <form onSubmit={submit} className="flex flex-col gap-3 sm:flex-row sm:items-end" noValidate>
          <div className="flex-1"><Input label="Number to opt out" value={number} onChange={(e) => setNumber(e.target.value)} error={addError}
            hint="Someone who asked you by phone or email, for example" /></div>
          <Button type="submit" disabled={add.isPending || !number.trim()}>Add</Button>
        </form>
        {add.data && <div className="mt-3"><Notice>{add.data.created ? `Added ${add.data.optout.number}.` : `${add.data.optout.number} was already on the list.`}</Notice></div>}
      </Card>
      {remove.data && <Notice>Removed {remove.data.number}: messages to it will be sent again.</Notice>}
      <div className="max-w-sm"><Input label="Find a number" value={filter} onChange={(e) => { setFilter(e.target.value); setPage(0); }} /></div>
      <ErrorText error={q.error ?? remove.error} />
      {q.isPending ? <Loading /> : <DataTable data={rows} columns={columns} caption="Opted-out numbers" empty={filter ? 'No opted-out number matches.' : 'Nobody has opted out.'} />}
      <Pager page={page} hasNext={all.length > (page + 1) * PAGE} onPage={setPage} />
    </Page>
  );
}
