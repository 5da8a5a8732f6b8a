import { useQuery } from '@tanstack/react-query';
import { get } from '../lib/api.ts';
import { Card, ErrorText, Loading } from '../ui.tsx';
import { ServiceStatusList, useServiceStatus } from './status-panel.tsx';

interface Pipeline {
  queues: Array<{ queue: string; depth: number; oldest_seconds: number }>;
  carriers: Array<{ name: string; bound: boolean; address: string | null }>;
  carriers_checked: boolean;
}

const QUEUE_NAMES: Record<string, string> = { messages: 'Messages waiting for the carrier', webhooks: 'Webhook deliveries pending' };

function age(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
  return `${Math.floor(seconds / 3600)} h ${Math.floor((seconds % 3600) / 60)} min`;
}

/** The operator's view of the pipeline: /status, queue depths with the oldest row's age, and carrier binds. */
export function PipelinePanel() {
  const status = useServiceStatus();
  const pipeline = useQuery({ queryKey: ['op', 'health'], queryFn: () => get<Pipeline>('/admin/health'), refetchInterval: 5000 });
  const p = pipeline.data;
  return (
    <Card title="Service and pipeline">
      <div className="space-y-4">
        {status.data ? <ServiceStatusList status={status.data} /> : <ErrorText error={status.error} />}
        <ErrorText error={pipeline.error} />
        {!p ? !pipeline.error && <Loading /> : (
          <div className="grid gap-4 md:grid-cols-2">
            <div>
              <h3 className="mb-2 font-semibold">Queues</h3>
              <dl className="space-y-2 text-sm">
                {p.queues.map((q) => (
                  <div key={q.queue} className="rounded-md border border-slate-200 p-2">
                    <dt className="font-medium">{QUEUE_NAMES[q.queue] ?? q.queue}</dt>
                    <dd><span className="text-lg font-semibold">{q.depth}</span>{q.depth > 0 && <span className="text-slate-700"> · oldest waiting {age(q.oldest_seconds)}</span>}</dd>
                  </div>
                ))}
              </dl>
            </div>
            <div>
              <h3 className="mb-2 font-semibold">Carrier binds</h3>
              {!p.carriers_checked ? <p className="text-sm text-slate-700">This process runs the API only: the workers hold the carrier links.</p> : (
                <ul className="space-y-2 text-sm" aria-label="Carrier binds">
                  {p.carriers.map((c) => (
                    <li key={c.name} className="rounded-md border border-slate-200 p-2">
                      <span className="font-medium">{c.name}</span>{c.address && <span className="text-slate-700"> ({c.address})</span>}: <span className={c.bound ? 'text-green-800' : 'font-semibold text-red-800'}>{c.bound ? 'bound' : 'not bound'}</span>
                    </li>
                  ))}
                </ul>
              )}
            </div>
          </div>
        )}
      </div>
    </Card>
  );
}
