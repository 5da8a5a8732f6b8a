import { useQuery } from '@tanstack/react-query';
import { GET, type Res } from '../lib/api.ts';
import { When } from '../zone.tsx';

/** `GET /status`: public, the same document the client libraries' status() reads. */
export type ServiceStatus = Res<'/status'>;

const NAMES: Record<keyof ServiceStatus['services'], string> = { outbound: 'Sending', inbound: 'Replies', delivery_receipts: 'Delivery receipts' };

export function useServiceStatus() {
  return useQuery({ queryKey: ['status'], queryFn: () => GET('/status'), refetchInterval: 30_000 });
}

/** The carrier link as /status sees it: each service operational or degraded, in words and not by colour alone. */
export function ServiceStatusList({ status }: { status: ServiceStatus }) {
  return (
    <div className="space-y-2 text-sm">
      <p>
        <strong className={status.status === 'operational' ? 'text-green-800' : 'text-red-800'}>
          {status.status === 'operational' ? 'All systems operational' : 'Degraded'}
        </strong>
        <span className="text-slate-600"> · checked <When iso={status.timestamp} /> · version {status.version}</span>
      </p>
      <ul className="grid gap-2 sm:grid-cols-3" aria-label="Services">
        {(Object.keys(NAMES) as Array<keyof ServiceStatus['services']>).map((k) => (
          <li key={k} className="rounded-md border border-slate-200 p-2">
            <span className="font-medium">{NAMES[k]}</span>: <span className={status.services[k] === 'operational' ? 'text-green-800' : 'font-semibold text-red-800'}>{status.services[k]}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}
