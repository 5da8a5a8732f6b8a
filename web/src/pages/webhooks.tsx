import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, GET, POST, PUT, type Res } from '../lib/api.ts';
import { When } from '../zone.tsx';
import { Button, Card, Checkbox, Empty, ErrorText, Input, Loading, Page, Pager, Secret, Status } from '../ui.tsx';

type Endpoint = NonNullable<Res<'/webhooks'>['delivery_receipt']>;
export type WebhookDelivery = Res<'/webhooks/deliveries'>['deliveries'][number];
type EndpointPath = '/webhooks/delivery' | '/webhooks/inbound';

const PAGE = 10;

function EndpointForm({ path, title, current }: { path: EndpointPath; title: string; current: Endpoint | null }) {
  const qc = useQueryClient();
  const [url, setUrl] = useState(current?.url ?? '');
  const [enabled, setEnabled] = useState(current?.enabled ?? true);
  const [secret, setSecret] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: () => PUT(path, { body: { url, enabled } }),
    onSuccess: (res) => {
      const s = Object.values(res)[0]?.secret;
      if (s) setSecret(s);
      void qc.invalidateQueries({ queryKey: ['webhooks'] });
    },
  });
  const rotate = useMutation({ mutationFn: () => POST(path), onSuccess: (r) => setSecret(r.secret) });
  const err = save.error instanceof ApiError ? save.error : null;
  const submit = (e: FormEvent) => { e.preventDefault(); save.mutate(); };
  return (
    <Card title={title}>
      <form onSubmit={submit} className="space-y-3">
        <Input label={`${title} URL`} type="url" value={url} onChange={(e) => setUrl(e.target.value)} error={err?.message} placeholder="https://example.com/hooks" />
        <Checkbox label="Enabled" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} />
        <div className="flex flex-wrap gap-2">
          <Button type="submit" disabled={save.isPending}>Save</Button>
          <Button kind="secondary" disabled={!current} onClick={() => rotate.mutate()}>Rotate signing secret</Button>
        </div>
      </form>
      <ErrorText error={rotate.error} />
      {save.isSuccess && <p role="status" className="mt-2 text-sm text-green-800">Saved.</p>}
      {secret && <div className="mt-3"><Secret label="Signing secret" value={secret} /></div>}
    </Card>
  );
}

export default function WebhooksPage() {
  const qc = useQueryClient();
  const [page, setPage] = useState(0);
  const config = useQuery({ queryKey: ['webhooks'], queryFn: () => GET('/webhooks') });
  const log = useQuery({
    queryKey: ['webhooks', 'deliveries', page],
    queryFn: () => GET('/webhooks/deliveries', { params: { query: { limit: PAGE, offset: page * PAGE } } }),
    refetchInterval: 3000,
  });
  const redeliver = useMutation({
    mutationFn: (id: string) => POST('/webhooks/deliveries/{id}/redeliver', { params: { path: { id } } }),
    onSuccess: () => { void qc.invalidateQueries({ queryKey: ['webhooks', 'deliveries'] }); },
  });
  if (config.isPending) return <Loading />;
  return (
    <Page title="Webhooks">
      <ErrorText error={config.error} />
      <div className="grid gap-4 lg:grid-cols-2">
        <EndpointForm path="/webhooks/delivery" title="Delivery receipts" current={config.data?.delivery_receipt ?? null} />
        <EndpointForm path="/webhooks/inbound" title="Inbound messages" current={config.data?.inbound ?? null} />
      </div>
      <Card title="Recent deliveries">
        <ErrorText error={log.error ?? redeliver.error} />
        {log.isPending ? <Loading /> : (log.data?.deliveries.length ?? 0) === 0 ? <Empty>No webhook deliveries yet.</Empty> : (
          <ul className="divide-y divide-slate-200" aria-label="Webhook deliveries">
            {log.data!.deliveries.map((d) => (
              <li key={d.id} className="space-y-1 py-3 text-sm">
                <div className="flex flex-wrap items-center gap-2">
                  <Status value={d.status} /> <code>{d.event}</code> <span className="text-slate-700"><When iso={d.created_at} /></span>
                  <Button kind="secondary" className="ml-auto" disabled={d.status === 'pending'} onClick={() => redeliver.mutate(d.id)} aria-label={`Redeliver ${d.id}`}>Redeliver</Button>
                </div>
                <ol className="pl-4 text-slate-800">
                  {d.attempts.map((a) => (
                    <li key={a.attempted_at}><When iso={a.attempted_at} />: {a.status_code ?? 'no response'}{a.error ? ` (${a.error})` : ''} in {a.duration_ms} ms</li>
                  ))}
                </ol>
              </li>
            ))}
          </ul>
        )}
        <Pager page={page} hasNext={(log.data?.total ?? 0) > (page + 1) * PAGE} onPage={setPage} />
      </Card>
    </Page>
  );
}
