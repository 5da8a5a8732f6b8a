import { useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { createColumnHelper } from '@tanstack/react-table';
import { GET, type Res } from '../lib/api.ts';
import { When } from '../zone.tsx';
import { Card, DataTable, ErrorText, Input, Loading } from '../ui.tsx';

// The email outbox (GET /admin/outbox): without SMTP_URL, where invitations and reset links are read.
type OutboxMail = Res<'/admin/outbox'>['mail'][number];

const KIND: Record<string, string> = { invite: 'Invitation', password_reset: 'Password reset', low_balance: 'Low balance' };

function state(m: OutboxMail): string {
  if (m.sent_at) return 'sent';
  if (m.last_error) return `not sent (${m.attempts} tries): ${m.last_error}`;
  return 'kept here';
}

export function Outbox() {
  const [to, setTo] = useState('');
  const list = useQuery({
    queryKey: ['op', 'outbox', to],
    queryFn: () => GET('/admin/outbox', { params: { query: { to: to.trim(), limit: 50 } } }),
    placeholderData: keepPreviousData,
  });
  const col = createColumnHelper<OutboxMail>();
  const columns = [
    col.accessor('created_at', { header: 'Written', cell: (c) => <When iso={c.getValue()} /> }),
    col.accessor('kind', { header: 'Kind', cell: (c) => KIND[c.getValue()] ?? c.getValue() }),
    col.accessor('to', { header: 'To' }),
    col.display({ id: 'state', header: 'State', cell: (c) => state(c.row.original) }),
    col.accessor('body', {
      header: 'Message',
      cell: (c) => c.getValue() === null ? 'delivered; the text is not kept' : (
        <details><summary>{c.row.original.subject}</summary><pre className="whitespace-pre-wrap break-all text-xs">{c.getValue()}</pre></details>
      ),
    }),
  ];
  return (
    <Card title="Email outbox">
      <p className="mb-3 text-sm text-slate-700">Invitations and password reset links. Without an SMTP server (SMTP_URL) they are kept here: pass the link on to the person it is for.</p>
      <div className="mb-3 max-w-xs"><Input label="To (email)" type="email" value={to} onChange={(e) => setTo(e.target.value)} /></div>
      {list.error ? <ErrorText error={list.error} /> : list.isPending ? <Loading /> : (
        <DataTable data={list.data?.mail ?? []} columns={columns} caption="Email outbox" empty={to ? 'No mail to that address.' : 'No mail yet.'} />
      )}
    </Card>
  );
}
