import { useQuery } from '@tanstack/react-query';
import { GET } from '../lib/api.ts';
import { Card, ErrorText, Loading } from '../ui.tsx';
import { ServiceStatusList, useServiceStatus } from './status-panel.tsx';
import { CarrierPanel } from './operator-carriers.tsx';

const QUEUE_NAMES: Record<string, string> = { messages: 'Messages waiting for the carrier', webhooks: 'Webhook deliveries pending' };

function age(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
  return `${Math.floor(seconds / 3600)} h ${Math.floor((seconds % 3600) / 60)} min`;
}

/** The operator's view of the pipeline: /status, queue depths with the oldest row's age (GET /admin/health), and the carriers (GET /admin/carriers). */
export function PipelinePanel() {
  const status = useServiceStatus();
  const pipeline = useQuery({ queryKey: ['op', 'health'], queryFn: () => GET('/admin/health'), refetchInterval: 5000 });
  const p = pipeline.data;
  return (
    <Card title="Service and pipeline">
      <div className="space-y-4">
        {status.data ? <ServiceStatusList status={status.data} /> : <ErrorText error={status.error} />}
        <ErrorText error={pipeline.error} />
        {!p ? !pipeline.error && <Loading /> : (
          <div>
            <h3 className="mb-2 font-semibold">Queues</h3>
            <dl className="grid gap-2 text-sm sm:grid-cols-2">
              {p.queues.map((q) => (
                <div key={q.queue} className="rounded-md border border-slate-200 p-2">
                  <dt className="font-medium">{QUEUE_NAMES[q.queue] ?? q.queue}</dt>
                  <dd><span className="text-lg font-semibold">{q.depth}</span><span className="text-slate-700">{q.depth > 0 ? ` · oldest waiting ${age(q.oldest_seconds)}` : ' · empty'}</span></dd>
                </div>
              ))}
            </dl>
          </div>
        )}
        <div>
          <h3 className="mb-2 font-semibold">Carriers and binds</h3>
          <CarrierPanel />
        </div>
      </div>
    </Card>
  );
}
