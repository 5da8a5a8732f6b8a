import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { useQuery, keepPreviousData } from '@tanstack/react-query';
import { createColumnHelper } from '@tanstack/react-table';
import { GET, withQuery, type QueryOf, type Res } from '../lib/api.ts';
import { When } from '../zone.tsx';
import type { SessionInfo } from '../session.ts';
import { Button, DataTable, Empty, ErrorText, Input, Loading, Page, Pager, Select, Status } from '../ui.tsx';
import { ScheduledMessages } from './scheduled.tsx';

export type MessageItem = Res<'/messages'>['messages'][number];

const col = createColumnHelper<MessageItem>();
const columns = [
  col.accessor('created_at', { header: 'Created', cell: (c) => <Link className="underline" to={`/messages/${c.row.original.id}`}><When iso={c.getValue()} /></Link> }),
  col.accessor('recipient', { header: 'To' }),
  col.accessor('sender', { header: 'From' }),
  col.accessor('status', { header: 'Status', cell: (c) => <Status value={c.getValue()} /> }),
  col.accessor('body', { header: 'Message', cell: (c) => <span className="line-clamp-2 max-w-xs">{c.getValue() ?? '(removed)'}</span> }),
  col.accessor('parts', { header: 'Parts' }),
];

/** The messages as cards for a phone: who, when and the status first, then the text, then the rest. */
function MessageCards({ messages }: { messages: MessageItem[] }) {
  if (messages.length === 0) return null;
  return (
    <ul aria-label="Messages, newest first" className="space-y-2 md:hidden">
      {messages.map((m) => (
        <li key={m.id} className="rounded-lg border border-slate-200 bg-white p-3 text-sm">
          <div className="flex items-start justify-between gap-2">
            <Link className="font-semibold underline" to={`/messages/${m.id}`}>To {m.recipient}</Link>
            <Status value={m.status} />
          </div>
          <p className="mt-1 line-clamp-3 break-words">{m.body ?? '(removed)'}</p>
          <p className="mt-1 text-xs text-slate-700"><When iso={m.created_at} /> · from {m.sender} · {m.parts} {m.parts === 1 ? 'part' : 'parts'}</p>
        </li>
      ))}
    </ul>
  );
}

type Filters = Pick<QueryOf<'/messages'>, 'q' | 'to' | 'status' | 'date_from' | 'date_to'>;

export default function MessagesPage({ session }: { session: SessionInfo }) {
  const [filters, setFilters] = useState<Filters>({});
  const [draft, setDraft] = useState<Filters>({});
  // Keyset paging: the cursors of the pages seen so far, so Previous works too.
  const [cursors, setCursors] = useState<Array<string | undefined>>([undefined]);
  const page = cursors.length - 1;
  const list = useQuery({
    queryKey: ['messages', filters, cursors[page]],
    queryFn: () => GET('/messages', { params: { query: { ...filters, limit: 25, cursor: cursors[page] } } }),
    placeholderData: keepPreviousData,
    refetchInterval: 5000,
  });
  const search = (e: FormEvent) => { e.preventDefault(); setFilters(draft); setCursors([undefined]); };
  return (
    <Page title="Messages">
      <ScheduledMessages canCancel={session.user.can_send} />
      <h2 className="text-lg font-semibold">All messages</h2>
      <form onSubmit={search} className="grid gap-3 sm:grid-cols-2 lg:grid-cols-6 lg:items-end" role="search">
        <Input label="Text contains" value={draft.q ?? ''} onChange={(e) => setDraft({ ...draft, q: e.target.value })} />
        <Input label="Number" value={draft.to ?? ''} onChange={(e) => setDraft({ ...draft, to: e.target.value })} />
        <Select label="Status" value={draft.status ?? ''} onChange={(e) => setDraft({ ...draft, status: (e.target.value || undefined) as Filters['status'] })}>
          <option value="">Any</option>
          {['queued', 'scheduled', 'sent', 'delivered', 'failed', 'cancelled'].map((s) => <option key={s}>{s}</option>)}
        </Select>
        <Input label="From date" type="date" value={draft.date_from ?? ''} onChange={(e) => setDraft({ ...draft, date_from: e.target.value })} />
        <Input label="To date" type="date" value={draft.date_to ?? ''} onChange={(e) => setDraft({ ...draft, date_to: e.target.value })} />
        <Button type="submit">Search</Button>
      </form>
      <ErrorText error={list.error} />
      {list.isPending ? <Loading /> : (
        <>
          {/* A phone gets cards (nothing scrolls sideways); wider screens the table. Only one is displayed. */}
          <MessageCards messages={list.data?.messages ?? []} />
          <div className="hidden md:block">
            <DataTable data={list.data?.messages ?? []} columns={columns} caption="Messages, newest first"
              empty={Object.values(filters).some(Boolean) ? 'No message matches this search.' : <>No messages yet. <Link className="underline" to="/send">Send one</Link>.</>} />
          </div>
          {list.data?.messages.length === 0 && <div className="md:hidden"><Empty>{Object.values(filters).some(Boolean) ? 'No message matches this search.' : 'No messages yet.'}</Empty></div>}
        </>
      )}
      <Pager page={page} hasNext={!!list.data?.next_cursor}
        onPage={(p) => setCursors(p > page ? [...cursors, list.data!.next_cursor ?? undefined] : cursors.slice(0, p + 1))} />
      {/* Every message the search matches, not only this page: the server streams the file. */}
      <a className="self-start rounded-md border border-slate-400 bg-white px-4 py-2 text-sm font-semibold hover:bg-slate-100"
        href={withQuery('/messages/export', { ...filters })} download="messages.csv">Export CSV</a>
    </Page>
  );
}
