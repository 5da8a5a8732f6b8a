import { useState } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { createColumnHelper } from '@tanstack/react-table';
import { GET, POST, csrfHeader, type Res } from '../lib/api.ts';
import { When } from '../zone.tsx';
import { Button, Card, DataTable, ErrorText, Input, Loading, Pager, Select } from '../ui.tsx';

// The accounts' Sender ID requests, reviewed by the operator (the same as `tasman admin sender-id requests|approve|
// reject`): approve after checking the national register (it registers the Sender ID to the account), or reject
// with the reason the account will read.
const PAGE = 10;

type Request = Res<'/admin/sender-id-requests'>['requests'][number];
type Status = 'requested' | 'approved' | 'rejected' | 'all';

export function SenderIdRequests({ csrf }: { csrf: string }) {
  const qc = useQueryClient();
  const [status, setStatus] = useState<Status>('requested');
  const [page, setPage] = useState(0);
  const [reasons, setReasons] = useState<Record<string, string>>({});
  const list = useQuery({
    queryKey: ['op', 'sender-id-requests', status, page],
    queryFn: () => GET('/admin/sender-id-requests', { params: { query: { status, limit: PAGE, offset: page * PAGE } } }),
    placeholderData: keepPreviousData,
  });
  const done = () => { void qc.invalidateQueries({ queryKey: ['op', 'sender-id-requests'] }); void qc.invalidateQueries({ queryKey: ['op', 'sender-ids'] }); };
  const headers = csrfHeader(csrf);
  const approve = useMutation({
    mutationFn: (r: Request) => POST('/admin/sender-id-requests/{id}/approve', { params: { path: { id: r.id } }, headers }),
    onSuccess: done,
  });
  const reject = useMutation({
    mutationFn: (r: Request) => POST('/admin/sender-id-requests/{id}/reject', { params: { path: { id: r.id } }, body: { reason: reasons[r.id] ?? '' }, headers }),
    onSuccess: done,
  });
  const col = createColumnHelper<Request>();
  const columns = [
    col.accessor('sender_id', { header: 'Sender ID', cell: (c) => <code>{c.getValue()}</code> }),
    col.accessor('business_name', { header: 'Account', cell: (c) => <>{c.getValue()}<br /><span className="text-xs text-slate-700">ABN {c.row.original.abn}</span></> }),
    col.accessor('use_description', { header: 'What for' }),
    col.accessor('created_at', { header: 'Asked', cell: (c) => <When iso={c.getValue()} /> }),
    col.display({
      id: 'review', header: 'Review',
      cell: ({ row: { original: r } }) => r.status !== 'requested'
        ? <span>{r.status}{r.reason ? `: ${r.reason}` : ''}</span>
        : (
          <div className="flex flex-wrap items-end gap-2">
            <Button type="button" onClick={() => approve.mutate(r)} disabled={approve.isPending}>Approve {r.sender_id}</Button>
            <Input label={`Reason to reject ${r.sender_id}`} value={reasons[r.id] ?? ''} maxLength={500} onChange={(e) => setReasons({ ...reasons, [r.id]: e.target.value })} />
            <Button type="button" kind="danger" onClick={() => reject.mutate(r)} disabled={reject.isPending || !(reasons[r.id] ?? '').trim()}>Reject</Button>
          </div>
        ),
    }),
  ];
  return (
    <Card title="Sender ID requests">
      <p className="mb-3 text-sm text-slate-700">Check the national register before approving: approving lets the account send as that name.</p>
      <div className="mb-3 max-w-xs">
        <Select label="Show requests" value={status} onChange={(e) => { setStatus(e.target.value as Status); setPage(0); }}>
          <option value="requested">Waiting for review</option><option value="approved">Approved</option><option value="rejected">Rejected</option><option value="all">All</option>
        </Select>
      </div>
      {approve.error ? <ErrorText error={approve.error} /> : null}
      {reject.error ? <ErrorText error={reject.error} /> : null}
      {list.error ? <ErrorText error={list.error} /> : list.isPending ? <Loading /> : (
        <DataTable data={list.data?.requests ?? []} columns={columns} caption="Sender ID requests" empty={status === 'requested' ? 'No requests waiting.' : 'No requests here.'} />
      )}
      <Pager page={page} hasNext={(page + 1) * PAGE < (list.data?.total ?? 0)} onPage={setPage} />
    </Card>
  );
}
