import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { createColumnHelper } from '@tanstack/react-table';
import { GET, POST, type QueryOf, type Res } from '../lib/api.ts';
import { When } from '../zone.tsx';
import type { SessionInfo } from '../session.ts';
import { Button, Card, DataTable, Empty, ErrorText, Loading, Notice, Page, Pager, Select } from '../ui.tsx';
import { SenderIdRequests } from './sender-id-requests.tsx';

type Held = Res<'/numbers'>['numbers'][number];
type Country = NonNullable<QueryOf<'/numbers/available'>['country']>;

// The lease is paid 30 days at a time (paid_until); a number the operator assigned has no lease to renew.
const col = createColumnHelper<Held>();
const columns = [
  col.accessor('number', { header: 'Number', cell: (c) => <>{c.getValue()}{c.row.original.label && <span className="block text-xs text-slate-700">{c.row.original.label}</span>}</> }),
  col.accessor('country', { header: 'Country' }),
  col.accessor('price_monthly', { header: 'Price a month', cell: (c) => `$${c.getValue().toFixed(2)}` }),
  col.accessor('paid_until', {
    header: 'Lease renews',
    cell: (c) => c.row.original.status === 'past_due'
      ? <span className="font-semibold text-red-800">renewal unpaid since <When iso={c.getValue()} />: top up within 7 days to keep it</span>
      : c.getValue() ? <When iso={c.getValue()} /> : 'assigned by your provider (no lease)',
  }),
];

const PAGE = 10;

export default function NumbersPage({ session }: { session: SessionInfo }) {
  const qc = useQueryClient();
  const [country, setCountry] = useState<Country>('AU');
  const [page, setPage] = useState(0);
  const held = useQuery({ queryKey: ['numbers'], queryFn: () => GET('/numbers') });
  const senders = useQuery({ queryKey: ['senders'], queryFn: () => GET('/senders') });
  const available = useQuery({
    queryKey: ['numbers', 'available', country, page],
    queryFn: () => GET('/numbers/available', { params: { query: { country, limit: PAGE, offset: page * PAGE } } }),
  });
  const lease = useMutation({
    mutationFn: (number: string) => POST('/numbers/purchase', { body: { number } }),
    onSuccess: () => { void qc.invalidateQueries({ queryKey: ['numbers'] }); },
  });
  return (
    <Page title="Numbers & Sender IDs">
      <Card title="Your numbers">
        <ErrorText error={held.error} />
        {held.isPending ? <Loading /> : <DataTable data={held.data?.numbers ?? []} columns={columns} caption="Your dedicated numbers" pageSize={20}
          empty="No dedicated numbers: messages go from the shared number. Lease one below." />}
      </Card>
      <Card title="Lease a number">
        {!session.user.can_billing && <p className="mb-3 text-sm text-slate-700">Leasing a number needs permission to move credits and buy numbers: ask an admin or the owner.</p>}
        <div className="max-w-xs"><Select label="Country" value={country} onChange={(e) => { setCountry(e.target.value as Country); setPage(0); }}>
          <option value="AU">Australia</option><option value="NZ">New Zealand</option>
        </Select></div>
        {lease.data && <Notice>Leased {lease.data.number}.</Notice>}
        <ErrorText error={lease.error ?? available.error} />
        {available.isPending ? <Loading /> : (available.data?.numbers.length ?? 0) === 0 ? <p className="mt-3 text-sm">No numbers are free in this country right now.</p> : (
          <ul className="mt-3 divide-y divide-slate-200">
            {available.data!.numbers.map((n) => (
              <li key={n.id} className="flex items-center justify-between gap-3 py-2">
                <span>{n.number} · ${n.price_monthly.toFixed(2)} a month</span>
                <Button kind="secondary" disabled={!session.user.can_billing || lease.isPending} onClick={() => lease.mutate(n.number)} aria-label={`Lease ${n.number}`}>Lease</Button>
              </li>
            ))}
          </ul>
        )}
        <Pager page={page} hasNext={(available.data?.numbers.length ?? 0) === PAGE} onPage={setPage} />
      </Card>
      <Card title="Sender IDs">
        <ErrorText error={senders.error} />
        {senders.isPending ? <Loading /> : senders.data && senders.data.sender_ids.length > 0 ? (
          <ul className="mb-3 flex flex-wrap gap-2" aria-label="Your Sender IDs">
            {senders.data.sender_ids.map((id) => <li key={id} className="rounded-md border border-slate-300 bg-slate-50 px-3 py-1 font-mono text-sm">{id}</li>)}
          </ul>
        ) : <Empty>No Sender IDs yet.</Empty>}
        <p className="mt-3 text-sm text-slate-700">
          An alphanumeric Sender ID (such as HarbourCafe) is registered to your ABN by the operator; once registered,
          choose it as the sender on the Send page. Ask for one below.
        </p>
        <SenderIdRequests mayManage={session.user.permissions.includes('manage')} />
      </Card>
    </Page>
  );
}
