import { useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { createColumnHelper } from '@tanstack/react-table';
import { ApiError, GET, type Res } from '../lib/api.ts';
import { When } from '../zone.tsx';
import { Card, DataTable, ErrorText, Input, Loading, Pager, Select } from '../ui.tsx';

// The operator's lists (GET /admin/sender-ids, GET /admin/numbers, the same lists as `tasman admin … list`).
const PAGE = 10;

type SenderId = Res<'/admin/sender-ids'>['sender_ids'][number];
type PoolNumber = Res<'/admin/numbers'>['numbers'][number];

/** A server older than these lists answers 404: say so in words instead of showing an error. */
function ListError({ error }: { error: unknown }) {
  if (error instanceof ApiError && error.status === 404) return <p className="text-sm text-slate-700">This server does not list these yet.</p>;
  return <ErrorText error={error} />;
}

export function SenderIdList() {
  const [q, setQ] = useState('');
  const [page, setPage] = useState(0);
  const list = useQuery({
    queryKey: ['op', 'sender-ids', q, page],
    queryFn: () => GET('/admin/sender-ids', { params: { query: { q, limit: PAGE, offset: page * PAGE } } }),
    placeholderData: keepPreviousData,
  });
  const col = createColumnHelper<SenderId>();
  const columns = [
    col.accessor('sender_id', { header: 'Sender ID', cell: (c) => <code>{c.getValue()}</code> }),
    col.accessor('abn', { header: 'ABN' }),
    col.accessor('account_id', { header: 'Account', cell: (c) => c.getValue() ? <code className="text-xs">{c.getValue()}</code> : 'any with this ABN' }),
    col.accessor('created_at', { header: 'Registered', cell: (c) => <When iso={c.getValue()} /> }),
  ];
  return (
    <Card title="Registered Sender IDs">
      <div className="mb-3 max-w-xs"><Input label="Find a Sender ID" value={q} maxLength={11} onChange={(e) => { setQ(e.target.value); setPage(0); }} /></div>
      {list.error ? <ListError error={list.error} /> : list.isPending ? <Loading /> : (
        <DataTable data={list.data?.sender_ids ?? []} columns={columns} caption="Registered Sender IDs" empty={q ? 'No Sender ID matches.' : 'No Sender IDs registered yet.'} />
      )}
      <Pager page={page} hasNext={(list.data?.sender_ids.length ?? 0) === PAGE} onPage={setPage} />
    </Card>
  );
}

export function NumberPool() {
  const [status, setStatus] = useState<'' | 'pool' | 'held'>('');
  const [page, setPage] = useState(0);
  const list = useQuery({
    queryKey: ['op', 'numbers', status, page],
    queryFn: () => GET('/admin/numbers', { params: { query: { status: status || undefined, limit: PAGE, offset: page * PAGE } } }),
    placeholderData: keepPreviousData,
  });
  const col = createColumnHelper<PoolNumber>();
  const columns = [
    col.accessor('number', { header: 'Number' }),
    col.accessor('country', { header: 'Country' }),
    col.accessor('price_monthly', { header: 'Price a month', cell: (c) => `$${c.getValue().toFixed(2)}` }),
    col.accessor('account_id', { header: 'Held by', cell: (c) => c.getValue() ? <code className="text-xs">{c.getValue()}</code> : 'free (in the pool)' }),
    col.accessor('paid_until', { header: 'Paid until', cell: (c) => c.row.original.unpaid_since ? <span className="text-red-800">unpaid since <When iso={c.row.original.unpaid_since} /></span> : <When iso={c.getValue()} /> }),
  ];
  return (
    <Card title="Number pool">
      <div className="mb-3 max-w-xs">
        <Select label="Show" value={status} onChange={(e) => { setStatus(e.target.value as typeof status); setPage(0); }}>
          <option value="">All numbers</option><option value="pool">Free in the pool</option><option value="held">Held by an account</option>
        </Select>
      </div>
      {list.error ? <ListError error={list.error} /> : list.isPending ? <Loading /> : (
        <DataTable data={list.data?.numbers ?? []} columns={columns} caption="Dedicated numbers" empty="No numbers here yet: add one below." />
      )}
      <Pager page={page} hasNext={(list.data?.numbers.length ?? 0) === PAGE} onPage={setPage} />
    </Card>
  );
}
