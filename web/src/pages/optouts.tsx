import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { createColumnHelper } from '@tanstack/react-table';
import { get } from '../lib/api.ts';
import { dateTime, downloadCsv } from '../lib/format.ts';
import { Button, DataTable, ErrorText, Input, Loading, Page, Pager } from '../ui.tsx';

interface Optout { number: string; created_at: string; source: string }
const PAGE = 50;
const col = createColumnHelper<Optout>();
const columns = [
  col.accessor('number', { header: 'Number' }),
  col.accessor('created_at', { header: 'Opted out', cell: (c) => dateTime(c.getValue()) }),
  col.accessor('source', { header: 'How' }),
];

export default function OptoutsPage() {
  const [page, setPage] = useState(0);
  const [filter, setFilter] = useState('');
  const q = useQuery({ queryKey: ['optouts'], queryFn: () => get<{ optouts: Optout[] }>('/optouts') });
  const all = (q.data?.optouts ?? []).filter((o) => o.number.includes(filter.replace(/\s/g, '')));
  const rows = all.slice(page * PAGE, (page + 1) * PAGE);
  return (
    <Page title="Opt-outs" actions={
      <Button kind="secondary" disabled={!q.data?.optouts.length}
        onClick={() => downloadCsv('optouts.csv', ['number', 'created_at', 'source'], (q.data?.optouts ?? []).map((o) => [o.number, o.created_at, o.source]))}>
        Export CSV
      </Button>
    }>
      <p className="text-sm text-slate-700">Numbers that replied STOP (or used an opt-out link) are never sent to again.</p>
      <div className="max-w-sm"><Input label="Find a number" value={filter} onChange={(e) => { setFilter(e.target.value); setPage(0); }} /></div>
      <ErrorText error={q.error} />
      {q.isPending ? <Loading /> : <DataTable data={rows} columns={columns} caption="Opted-out numbers" empty="Nobody has opted out." />}
      <Pager page={page} hasNext={all.length > (page + 1) * PAGE} onPage={setPage} />
    </Page>
  );
}
