import { useState } from 'react';
import { Link, Route, Routes, useParams } from 'react-router';
import { useMutation, useQuery, useQueryClient, keepPreviousData } from '@tanstack/react-query';
import { createColumnHelper } from '@tanstack/react-table';
import { DELETE, GET, type Res } from '../lib/api.ts';
import { dateTime } from '../lib/format.ts';
import { When } from '../zone.tsx';
import { useAccountSettings } from '../settings.ts';
import { Button, Card, DataTable, ErrorText, Loading, Notice, Page, Pager, Status } from '../ui.tsx';

type Campaign = Res<'/campaigns'>['campaigns'][number];
type Detail = Res<'/campaign/{id}'>;
type Stats = Detail['stats'];
type CampaignMessage = Detail['messages'][number];

const PAGE = 25;
const col = createColumnHelper<Campaign>();
const columns = [
  col.accessor('name', { header: 'Campaign', cell: (c) => <Link className="underline" to={`/campaigns/${c.row.original.id}`}>{c.getValue() ?? 'Untitled batch'}</Link> }),
  col.accessor('created_at', { header: 'Created', cell: (c) => <When iso={c.getValue()} /> }),
  col.accessor('status', { header: 'Status', cell: (c) => <Status value={c.getValue()} /> }),
  col.accessor('recipient_count', { header: 'Recipients' }),
  col.display({ id: 'progress', header: 'Delivered / failed', cell: (c) => `${c.row.original.stats.delivered} / ${c.row.original.stats.failed}` }),
  col.accessor('total_credits', { header: 'Credits' }),
];

function CampaignList() {
  const [page, setPage] = useState(0);
  const q = useQuery({
    queryKey: ['campaigns', page], queryFn: () => GET('/campaigns', { params: { query: { limit: PAGE, offset: page * PAGE } } }),
    placeholderData: keepPreviousData, refetchInterval: 5000,
  });
  return (
    <Page title="Campaigns">
      <ErrorText error={q.error} />
      {q.isPending ? <Loading /> : <DataTable data={q.data?.campaigns ?? []} columns={columns} caption="Campaigns, newest first"
        empty={<>No campaigns yet: a batch from the <Link className="underline" to="/send">Send</Link> page starts one.</>} />}
      <Pager page={page} hasNext={(q.data?.campaigns.length ?? 0) === PAGE} onPage={setPage} />
    </Page>
  );
}

const mcol = createColumnHelper<CampaignMessage>();
const messageColumns = [
  mcol.accessor('recipient', { header: 'To', cell: (c) => <Link className="underline" to={`/messages/${c.row.original.id}`}>{c.getValue()}</Link> }),
  mcol.accessor('status', { header: 'Status', cell: (c) => <Status value={c.getValue()} /> }),
  mcol.accessor('body', { header: 'Message', cell: (c) => <span className="line-clamp-2 max-w-xs">{c.getValue() ?? '(removed)'}</span> }),
];

function CancelSchedule({ id, campaign, stats }: { id: string; campaign: Detail['campaign']; stats: Stats }) {
  const qc = useQueryClient();
  const { settings } = useAccountSettings();
  const cancel = useMutation({
    mutationFn: () => DELETE('/campaign/{id}/schedule', { params: { path: { id } } }),
    onSuccess: () => { void qc.invalidateQueries({ queryKey: ['campaign', id] }); void qc.invalidateQueries({ queryKey: ['balance'] }); },
  });
  return (
    <div className="mt-3 space-y-2">
      {campaign.scheduled_at && <p className="text-sm">Sends at {dateTime(campaign.scheduled_at, settings.time_zone)} ({settings.time_zone}).</p>}
      {(stats.scheduled ?? 0) > 0 && <Button kind="danger" disabled={cancel.isPending} onClick={() => cancel.mutate()}>Cancel the scheduled messages</Button>}
      {cancel.data && <Notice>Cancelled {cancel.data.cancelled} message(s); {cancel.data.credits_refunded} credit(s) returned.</Notice>}
      <ErrorText error={cancel.error} />
    </div>
  );
}

function CampaignDetail() {
  const { id = '' } = useParams();
  const [page, setPage] = useState(0);
  const q = useQuery({
    queryKey: ['campaign', id, page],
    queryFn: () => GET('/campaign/{id}', { params: { path: { id }, query: { limit: PAGE, offset: page * PAGE } } }),
    placeholderData: keepPreviousData,
    // Progress updates while sending.
    refetchInterval: (query) => (query.state.data?.campaign.status === 'completed' && query.state.data.stats.sent === 0 ? false : 2000),
  });
  if (q.isPending) return <Loading />;
  if (!q.data) return <Page title="Campaign"><ErrorText error={q.error} /></Page>;
  const { campaign: c, stats: s } = q.data;
  const done = s.delivered + s.failed;
  return (
    <Page title={c.name ?? 'Untitled batch'} actions={<Link className="underline" to="/campaigns">All campaigns</Link>}>
      <Card title="Progress">
        <p className="mb-2 text-sm"><Status value={c.status} /> {done} of {s.total} finished · {c.total_credits} credits</p>
        <div className="h-3 w-full overflow-hidden rounded bg-slate-200" role="progressbar" aria-label="Finished messages" aria-valuemin={0} aria-valuemax={s.total} aria-valuenow={done}>
          <div className="h-3 bg-green-600" style={{ width: `${s.total ? (done / s.total) * 100 : 0}%` }} />
        </div>
        <dl className="mt-3 grid grid-cols-2 gap-2 text-sm sm:grid-cols-4">
          {(['scheduled', 'queued', 'sent', 'delivered', 'failed', 'cancelled'] as const).filter((k) => s[k] !== undefined && (s[k] || !['scheduled', 'cancelled'].includes(k)))
            .map((k) => <div key={k}><dt className="text-slate-600">{k}</dt><dd className="text-lg font-semibold">{s[k]}</dd></div>)}
        </dl>
        <CancelSchedule id={id} campaign={c} stats={s} />
        {c.message_body && <p className="mt-3 whitespace-pre-wrap rounded bg-slate-100 p-3 text-sm">{c.message_body}</p>}
      </Card>
      <DataTable data={q.data.messages} columns={messageColumns} caption="Messages of this campaign" empty="No messages." />
      <Pager page={page} hasNext={q.data.messages.length === PAGE} onPage={setPage} />
    </Page>
  );
}

export default function CampaignsPage() {
  return (
    <Routes>
      <Route index element={<CampaignList />} />
      <Route path=":id" element={<CampaignDetail />} />
    </Routes>
  );
}
