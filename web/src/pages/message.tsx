import { Link, useParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { get } from '../lib/api.ts';
import { dateTime } from '../lib/format.ts';
import { Card, ErrorText, Loading, Page, Status } from '../ui.tsx';
import type { MessageItem } from './messages.tsx';

export default function MessagePage() {
  const { id } = useParams();
  const q = useQuery({
    queryKey: ['message', id],
    queryFn: () => get<{ message: Omit<MessageItem, 'delivery_receipt'>; delivery_receipt: MessageItem['delivery_receipt'] }>(`/message/${id}`),
    // Follows the message until it reaches a final state.
    refetchInterval: (query) => (['delivered', 'failed', 'cancelled'].includes(query.state.data?.message.status ?? '') ? false : 2000),
  });
  if (q.isPending) return <Loading />;
  if (q.error || !q.data) return <Page title="Message"><ErrorText error={q.error} /></Page>;
  const { message: m, delivery_receipt: r } = q.data;
  const timeline: Array<[string, string | null, string?]> = [
    ['Accepted', m.created_at, `${m.parts} part(s) charged`],
    ['Submitted to the carrier', m.sent_at],
    ...(r ? [[`Receipt: ${r.status}`, r.received_at, r.error_code ? `carrier code ${r.error_code}` : undefined] as [string, string, string?]] : []),
  ];
  return (
    <Page title="Message" actions={<Link className="underline" to="/messages">All messages</Link>}>
      <Card>
        <dl className="grid gap-3 text-sm sm:grid-cols-2">
          <div><dt className="text-slate-600">Status</dt><dd><Status value={m.status} /></dd></div>
          <div><dt className="text-slate-600">To</dt><dd>{m.recipient}</dd></div>
          <div><dt className="text-slate-600">From</dt><dd>{m.sender}</dd></div>
          {m.campaign_id && <div><dt className="text-slate-600">Campaign</dt><dd><Link className="underline" to={`/campaigns/${m.campaign_id}`}>Open</Link></dd></div>}
          <div className="sm:col-span-2"><dt className="text-slate-600">Message</dt><dd className="whitespace-pre-wrap">{m.body ?? '(removed by retention)'}</dd></div>
          {m.error_code && <div className="sm:col-span-2"><dt className="text-slate-600">Why it failed</dt><dd className="text-red-800">{m.error_message ?? m.error_code} ({m.error_code})</dd></div>}
        </dl>
      </Card>
      <Card title="Timeline">
        <ol className="space-y-3 border-l-2 border-slate-300 pl-4">
          {timeline.map(([label, at, note]) => (
            <li key={label}>
              <p className="font-semibold">{label}</p>
              <p className="text-sm text-slate-700">{at ? dateTime(at) : 'not yet'}{note ? ` · ${note}` : ''}</p>
            </li>
          ))}
        </ol>
      </Card>
    </Page>
  );
}
