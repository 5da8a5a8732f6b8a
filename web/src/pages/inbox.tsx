import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, GET, POST, type Res } from '../lib/api.ts';
import { When } from '../zone.tsx';
import type { SessionInfo } from '../session.ts';
import { Button, Card, Empty, ErrorText, Input, Loading, Notice, Page, Pager, TextArea } from '../ui.tsx';

type Inbound = Res<'/inbox'>['messages'][number];
interface Entry { id: string; direction: 'in' | 'out'; body: string | null; at: string; status?: string; service: string }

const PAGE = 50;

export default function InboxPage({ session }: { session: SessionInfo }) {
  const [page, setPage] = useState(0);
  const [filter, setFilter] = useState('');
  const [selected, setSelected] = useState<string | null>(null);
  const inbox = useQuery({
    queryKey: ['inbox', page, filter],
    queryFn: () => GET('/inbox', { params: { query: { limit: PAGE, offset: page * PAGE, from: filter } } }),
    // No polling of its own: the shell watches the unread count and refetches this list when a reply arrives.
  });
  // Conversations: one per customer number, newest first.
  const threads = useMemo(() => {
    const by = new Map<string, Inbound[]>();
    for (const m of inbox.data?.messages ?? []) by.set(m.from, [...(by.get(m.from) ?? []), m]);
    return [...by.entries()];
  }, [inbox.data]);
  const current = selected ?? threads[0]?.[0] ?? null;
  useMarkRead(current, threads.find(([f]) => f === current)?.[1] ?? [], session.user.can_send);
  return (
    <Page title="Inbox">
      <div className="max-w-sm"><Input label="Filter by number" value={filter} onChange={(e) => { setFilter(e.target.value); setPage(0); }} /></div>
      <ErrorText error={inbox.error} />
      {inbox.isPending ? <Loading /> : threads.length === 0 ? <Empty>No replies yet. Replies to your messages arrive here.</Empty> : (
        <div className="grid gap-4 lg:grid-cols-[18rem_1fr]">
          <nav aria-label="Conversations">
            <ul className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white">
              {threads.map(([from, msgs]) => (
                <li key={from}>
                  <button type="button" aria-current={from === current ? 'true' : undefined} onClick={() => setSelected(from)}
                    className={`w-full p-3 text-left ${from === current ? 'bg-blue-50' : ''}`}>
                    <span className="flex items-center justify-between gap-2 font-semibold">{from}{unreadIn(msgs) > 0 && <span className="rounded bg-blue-700 px-1.5 text-xs text-white">{unreadIn(msgs)} new</span>}</span>
                    <span className="line-clamp-1 block text-sm text-slate-700">{msgs[0]!.body}</span>
                  </button>
                </li>
              ))}
            </ul>
          </nav>
          {current && <Thread number={current} inbound={threads.find(([f]) => f === current)?.[1] ?? []} canSend={session.user.can_send} />}
        </div>
      )}
      <Pager page={page} hasNext={(inbox.data?.total ?? 0) > (page + 1) * PAGE} onPage={setPage} />
    </Page>
  );
}

const unreadIn = (msgs: Inbound[]) => msgs.filter((m) => m.unread).length;

/**
 * Opening a conversation marks its replies read (it needs the send permission, like replying); the badge in the
 * navigation takes the count the API answers. Once per newest unread reply, however often the list refetches.
 */
function useMarkRead(number: string | null, msgs: Inbound[], canSend: boolean) {
  const qc = useQueryClient();
  const done = useRef(new Set<string>());
  const newest = msgs.find((m) => m.unread)?.id;
  useEffect(() => {
    if (!number || !newest || !canSend || done.current.has(newest)) return;
    done.current.add(newest);
    void POST('/conversations/{number}/read', { params: { path: { number } } }).then((r) => {
      qc.setQueryData(['unread'], r.unread_total);
      void qc.invalidateQueries({ queryKey: ['inbox'] });
    }, () => done.current.delete(newest));
  }, [number, newest, canSend, qc]);
}

function Thread({ number, inbound, canSend }: { number: string; inbound: Inbound[]; canSend: boolean }) {
  const qc = useQueryClient();
  const [reply, setReply] = useState('');
  const [error, setError] = useState<ApiError | null>(null);
  const [sent, setSent] = useState(false);
  const numbers = useQuery({ queryKey: ['numbers'], queryFn: () => GET('/numbers') });
  const outbound = useQuery({
    queryKey: ['messages', { to: number }],
    queryFn: () => GET('/messages', { params: { query: { to: number, limit: 50 } } }),
    refetchInterval: 5000,
  });
  // Both directions in time order.
  const entries: Entry[] = [
    ...inbound.map((m) => ({ id: m.id, direction: 'in' as const, body: m.body, at: m.received_at, service: m.to })),
    ...(outbound.data?.messages ?? []).map((m) => ({ id: m.id, direction: 'out' as const, body: m.body, at: m.created_at, status: m.status, service: m.sender })),
  ].sort((a, b) => a.at.localeCompare(b.at));
  const send = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    setSent(false);
    try {
      // Reply from the number they wrote to when it is one of ours; else the default (the shared number they wrote to).
      const service = inbound[0]?.to;
      const ours = service && numbers.data?.numbers.some((n) => n.number === service);
      await POST('/send', { body: { to: number, message: reply, ...(ours ? { sender: service } : {}) } });
      setReply('');
      setSent(true);
      void qc.invalidateQueries({ queryKey: ['messages'] });
    } catch (err) {
      setError(err instanceof ApiError ? err : new ApiError(0, 'error', String(err)));
    }
  };
  return (
    <Card title={`Conversation with ${number}`}>
      <ol className="mb-4 max-h-[28rem] space-y-2 overflow-y-auto">
        {entries.map((e) => (
          <li key={`${e.direction}-${e.id}`} className={`max-w-[85%] rounded-lg p-2 text-sm ${e.direction === 'in' ? 'bg-slate-100' : 'ml-auto bg-blue-100'}`}>
            <p className="whitespace-pre-wrap">{e.body ?? '(removed by retention)'}</p>
            <p className="text-xs text-slate-700">{e.direction === 'in' ? 'Received' : `Sent (${e.status})`} · <When iso={e.at} /></p>
          </li>
        ))}
      </ol>
      {canSend ? (
        <form onSubmit={(e) => void send(e)} className="space-y-2">
          <TextArea label="Reply" rows={2} value={reply} onChange={(e) => setReply(e.target.value)} error={error?.message} />
          <Button type="submit" disabled={reply.trim() === ''}>Send reply</Button>
          {sent && <Notice>Reply sent.</Notice>}
        </form>
      ) : <p className="text-sm text-slate-700">You cannot reply: your role does not include sending messages. Ask an admin or the owner.</p>}
    </Card>
  );
}
