import { useState } from 'react';
import { Link } from 'react-router';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { createColumnHelper } from '@tanstack/react-table';
import { DELETE, GET } from '../lib/api.ts';
import { dateTime } from '../lib/format.ts';
import { useAccountSettings } from '../settings.ts';
import { Button, Card, DataTable, ErrorText, Notice, Pager } from '../ui.tsx';
import type { MessageItem } from './messages.tsx';

const PAGE = 10;

/** The account's scheduled messages (newest accepted first), each with Cancel; credits come back on cancel. */
export function ScheduledMessages({ canCancel }: { canCancel: boolean }) {
  const qc = useQueryClient();
  const { settings } = useAccountSettings();
  const zone = settings.time_zone;
  const [cursors, setCursors] = useState<Array<string | undefined>>([undefined]);
  const page = cursors.length - 1;
  const list = useQuery({
    queryKey: ['messages', 'scheduled', cursors[page]],
    queryFn: () => GET('/messages', { params: { query: { status: 'scheduled', limit: PAGE, cursor: cursors[page] } } }),
    placeholderData: keepPreviousData,
    refetchInterval: 10_000,
  });
  const cancel = useMutation({
    mutationFn: (m: MessageItem) => DELETE('/message/{id}', { params: { path: { id: m.id } } }).then((r) => ({ ...r, to: m.recipient })),
    onSuccess: () => { void qc.invalidateQueries({ queryKey: ['messages'] }); void qc.invalidateQueries({ queryKey: ['balance'] }); },
  });
  const col = createColumnHelper<MessageItem>();
  const columns = [
    col.accessor('scheduled_at', { header: `Sends at (${zone})`, cell: (c) => <Link className="underline" to={`/messages/${c.row.original.id}`}>{dateTime(c.getValue(), zone)}</Link> }),
    col.accessor('recipient', { header: 'To' }),
    col.accessor('body', { header: 'Message', cell: (c) => <span className="line-clamp-2 max-w-xs">{c.getValue() ?? '(removed)'}</span> }),
    col.accessor('parts', { header: 'Credits' }),
    ...(canCancel ? [col.display({
      id: 'cancel', header: 'Cancel',
      cell: (c) => <Button kind="danger" disabled={cancel.isPending} aria-label={`Cancel the message to ${c.row.original.recipient} at ${dateTime(c.row.original.scheduled_at, zone)}`}
        onClick={() => cancel.mutate(c.row.original)}>Cancel</Button>,
    })] : []),
  ];
  // Nothing to say while none is scheduled and none was just cancelled: the list below says it all.
  if (!list.data?.messages.length && !cancel.data && !list.error && page === 0) return null;
  return (
    <Card title="Scheduled">
      <div className="space-y-3">
        <ErrorText error={list.error ?? cancel.error} />
        {cancel.data && <Notice>Cancelled the message to {cancel.data.to}; {cancel.data.credits_refunded} credit(s) returned.</Notice>}
        <DataTable data={list.data?.messages ?? []} columns={columns} caption="Scheduled messages" empty="Nothing is scheduled." />
        <Pager page={page} hasNext={!!list.data?.next_cursor}
          onPage={(p) => setCursors(p > page ? [...cursors, list.data!.next_cursor ?? undefined] : cursors.slice(0, p + 1))} />
      </div>
    </Card>
  );
}
