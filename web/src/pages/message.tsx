import { Link, useParams } from 'react-router';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { DELETE, GET, type Res } from '../lib/api.ts';
import { dateTime } from '../lib/format.ts';
import type { SessionInfo } from '../session.ts';
import { useAccountSettings } from '../settings.ts';
import { Button, Card, ErrorText, Loading, Notice, Page, Status } from '../ui.tsx';
import type { WebhookDelivery } from './webhooks.tsx';

type Detail = Res<'/message/{id}'>;
type Step = { label: string; at: string | null; note?: string | undefined; bad?: boolean };

const FINAL = ['delivered', 'failed', 'cancelled'];

/** The message's life in order: accepted, scheduled, submitted, its receipt, and every webhook attempt about it. */
export function timeline({ message: m, delivery_receipt: r, links }: Detail, deliveries: WebhookDelivery[], zone: string): Step[] {
  const steps: Step[] = [{ label: 'Accepted', at: m.created_at, note: `${m.parts} part(s) charged` }];
  if (m.scheduled_at) steps.push({ label: `Scheduled for ${dateTime(m.scheduled_at, zone)}`, at: m.created_at, note: zone });
  if (m.status === 'cancelled') steps.push({ label: m.error_code === 'opted_out' ? 'Cancelled: the recipient opted out' : 'Cancelled', at: null, note: 'credits returned', bad: true });
  if (m.sent_at || !m.scheduled_at) steps.push({ label: 'Submitted to the carrier', at: m.sent_at });
  if (r) steps.push({ label: `Receipt: ${r.status}`, at: r.received_at, note: r.error_code ? `carrier code ${r.error_code}` : undefined, bad: r.status !== 'delivered' });
  for (const d of deliveries) {
    d.attempts.forEach((a, i) => steps.push({
      label: `Webhook ${d.event}, attempt ${i + 1}`,
      at: a.attempted_at,
      note: a.status_code !== null ? `HTTP ${a.status_code} in ${a.duration_ms} ms` : `${a.error ?? 'no response'} after ${a.duration_ms} ms`,
      bad: a.status_code === null || a.status_code >= 300,
    }));
    if (d.status === 'pending') steps.push({ label: `Webhook ${d.event}: next attempt`, at: d.next_attempt_at });
  }
  for (const l of links) if (l.first_clicked_at) steps.push({ label: `Link clicked: ${l.url}`, at: l.first_clicked_at, note: `${l.clicks} click(s) in all` });
  // Stable by time; steps without a time (not yet) keep their place after the timed ones before them.
  return steps.map((s, i) => ({ s, i })).sort((a, b) => (a.s.at && b.s.at ? Date.parse(a.s.at) - Date.parse(b.s.at) || a.i - b.i : a.i - b.i)).map((x) => x.s);
}

export default function MessagePage({ session }: { session: SessionInfo }) {
  const { id } = useParams();
  const qc = useQueryClient();
  const { settings } = useAccountSettings();
  const q = useQuery({
    queryKey: ['message', id],
    queryFn: () => GET('/message/{id}', { params: { path: { id: id ?? '' } } }),
    // Follows the message until it reaches a final state.
    refetchInterval: (query) => (FINAL.includes(query.state.data?.message.status ?? '') ? false : 2000),
  });
  const hooks = useQuery({
    queryKey: ['message', id, 'webhooks'],
    queryFn: () => GET('/webhooks/deliveries', { params: { query: { message_id: id, limit: 100 } } }),
    refetchInterval: (query) => (query.state.data?.deliveries.some((d) => d.status === 'pending') || !FINAL.includes(q.data?.message.status ?? '') ? 3000 : false),
  });
  const cancel = useMutation({
    mutationFn: () => DELETE('/message/{id}', { params: { path: { id: id ?? '' } } }),
    onSuccess: () => { void qc.invalidateQueries({ queryKey: ['message', id] }); void qc.invalidateQueries({ queryKey: ['messages'] }); void qc.invalidateQueries({ queryKey: ['balance'] }); },
  });
  if (q.isPending) return <Loading />;
  if (q.error || !q.data) return <Page title="Message"><ErrorText error={q.error} /></Page>;
  const { message: m, links } = q.data;
  const steps = timeline(q.data, [...(hooks.data?.deliveries ?? [])].reverse(), settings.time_zone);
  return (
    <Page title="Message" actions={<Link className="underline" to="/messages">All messages</Link>}>
      <Card>
        <dl className="grid gap-3 text-sm sm:grid-cols-2">
          <div><dt className="text-slate-600">Status</dt><dd><Status value={m.status} /></dd></div>
          <div><dt className="text-slate-600">To</dt><dd>{m.recipient}</dd></div>
          <div><dt className="text-slate-600">From</dt><dd>{m.sender}</dd></div>
          {m.campaign_id && <div><dt className="text-slate-600">Campaign</dt><dd><Link className="underline" to={`/campaigns/${m.campaign_id}`}>Open</Link></dd></div>}
          <div className="sm:col-span-2"><dt className="text-slate-600">Message</dt><dd className="whitespace-pre-wrap">{m.body ?? '(removed by retention)'}</dd></div>
          {m.error_code && <div className="sm:col-span-2"><dt className="text-slate-600">{m.status === 'cancelled' ? 'Why it was not sent' : 'Why it failed'}</dt><dd className="text-red-800">{m.error_message ?? m.error_code} ({m.error_code})</dd></div>}
        </dl>
        {m.status === 'scheduled' && session.user.can_send && (
          <div className="mt-4 space-y-2">
            <Button kind="danger" disabled={cancel.isPending} onClick={() => cancel.mutate()}>Cancel this message</Button>
            <ErrorText error={cancel.error} />
          </div>
        )}
        {cancel.data && <div className="mt-3"><Notice>Cancelled; {cancel.data.credits_refunded} credit(s) returned.</Notice></div>}
      </Card>
      <Card title="Timeline">
        <ol className="space-y-3 border-l-2 border-slate-300 pl-4" aria-label="Timeline">
          {steps.map((s, i) => (
            <li key={i}>
              <p className={`font-semibold ${s.bad ? 'text-red-800' : ''}`}>{s.label}</p>
              <p className="text-sm text-slate-700">{s.at ? dateTime(s.at, settings.time_zone) : 'not yet'}{s.note ? ` · ${s.note}` : ''}</p>
            </li>
          ))}
        </ol>
        <ErrorText error={hooks.error} />
      </Card>
      {links.length > 0 && (
        <Card title="Links">
          <ul className="space-y-2 text-sm">
            {links.map((l) => <li key={l.short_url}><span className="break-all">{l.url}</span> → <code>{l.short_url}</code>: {l.clicks} click(s){l.first_clicked_at ? `, first ${dateTime(l.first_clicked_at, settings.time_zone)}` : ''}</li>)}
          </ul>
        </Card>
      )}
    </Page>
  );
}
