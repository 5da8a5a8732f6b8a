import { useQuery } from '@tanstack/react-query';
import { ApiError, GET, type Res } from '../lib/api.ts';
import { ErrorText, Loading } from '../ui.tsx';
import { When } from '../zone.tsx';

// GET /admin/carriers (the operator API): each carrier and each of its binds as the workers see them, and
// the routes. In a `tasman start` cluster the API relays it to the workers process; a process that runs no
// workers outside one answers 404, which the panel says in words.

type CarriersView = Res<'/admin/carriers'>;
type Carrier = CarriersView['carriers'][number];
type Bind = Carrier['binds'][number];
type BindState = Bind['state'];
type Route = CarriersView['routes'][number];

const STATE_CLASS: Record<BindState, string> = { bound: 'text-green-800', connecting: 'font-semibold text-amber-800', down: 'font-semibold text-red-800' };
const rate = (n: number) => (n >= 10 ? n.toFixed(0) : n.toFixed(1));

/** Why a carrier takes no new messages, in words (state is never shown by colour alone). */
function availability(c: Carrier) {
  if (c.available) return 'taking messages';
  if (c.state === 'down') return 'not taking messages: no bind is up';
  return <>not taking messages: every submit refused with system errors since <When iso={c.system_errors_since} /></>;
}

function routeWhen(r: Route): string {
  const parts = [
    r.country && `country ${r.country.join(', ')}`, r.prefix && `prefix ${r.prefix.join(', ')}`,
    r.sender && `sender ${r.sender}`, r.account && `account ${r.account.join(', ')}`,
  ].filter(Boolean);
  return parts.length ? parts.join('; ') : 'everything else';
}

/** Whether the bind runs at the SMSC's pace now (throttled_now), and its throttles since start, in words. */
function Throttling({ bind }: { bind: Bind }) {
  const count = `${bind.throttled} ${bind.throttled === 1 ? 'throttle' : 'throttles'} since start`;
  if (bind.throttled_now) return <><span className="font-semibold text-amber-800">throttled now</span><span className="block text-xs">{count}</span></>;
  return <>not now<span className="block text-xs">{count}</span></>;
}

function BindTable({ carrier }: { carrier: Carrier }) {
  return (
    // Focusable, so a keyboard can scroll the table sideways on a phone.
    <div className="overflow-x-auto" tabIndex={0} role="region" aria-label={`Binds of ${carrier.id}`}>
      <table className="min-w-full text-left text-sm">
        <caption className="sr-only">Binds of {carrier.id}</caption>
        <thead className="border-b border-slate-300 text-slate-700">
          <tr>
            <th scope="col" className="py-1 pr-3">Bind</th><th scope="col" className="py-1 pr-3">State</th>
            <th scope="col" className="py-1 pr-3">In flight</th><th scope="col" className="py-1 pr-3">Waiting for a window</th>
            <th scope="col" className="py-1 pr-3">Submits/s</th><th scope="col" className="py-1 pr-3">Submitted</th>
            <th scope="col" className="py-1 pr-3">Errors</th><th scope="col" className="py-1 pr-3">Receipts waiting</th>
            <th scope="col" className="py-1 pr-3">Rate (TPS)</th><th scope="col" className="py-1 pr-3">Throttled</th>
          </tr>
        </thead>
        <tbody>
          {carrier.binds.map((b) => (
            <tr key={b.index} className="border-b border-slate-100 align-top">
              <th scope="row" className="py-1 pr-3 font-medium">#{b.index}</th>
              <td className="py-1 pr-3">
                <span className={STATE_CLASS[b.state]}>{b.state}</span>
                {b.receiver && b.receiver !== b.state && <span className="block text-xs">receiver: <span className={STATE_CLASS[b.receiver]}>{b.receiver}</span></span>}
                {b.last_error && b.state !== 'bound' && <span className="block text-xs text-slate-700">why: {b.last_error}</span>}
              </td>
              <td className="py-1 pr-3">{b.in_flight}</td><td className="py-1 pr-3">{b.pending}</td>
              <td className="py-1 pr-3">{rate(b.submits_per_second)}</td><td className="py-1 pr-3">{b.submitted}</td>
              <td className="py-1 pr-3">{b.errors}</td><td className="py-1 pr-3">{b.receipts_waiting}</td>
              <td className="py-1 pr-3">{b.tps === null ? 'unpaced' : rate(b.tps)}</td>
              <td className="py-1 pr-3"><Throttling bind={b} /></td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Carriers, their binds (state and why, in flight, submits/s, errors, receipts waiting, rate and throttling) and the routes. */
export function CarrierPanel() {
  const q = useQuery({
    queryKey: ['op', 'carriers'], queryFn: () => GET('/admin/carriers'), refetchInterval: 5000,
    retry: (n, err) => !(err instanceof ApiError && err.status === 404) && n < 2,
  });
  if (q.error instanceof ApiError && q.error.status === 404) {
    return <p className="text-sm text-slate-700">This process runs no carriers and is not part of a cluster that does: ask a worker process (<code>tasman admin carriers</code> there).</p>;
  }
  if (q.error) return <ErrorText error={q.error} />;
  if (!q.data) return <Loading />;
  const { carriers, routes, unserved_countries: unserved } = q.data;
  return (
    <div className="space-y-3">
      {unserved.length > 0 && <p role="alert" className="text-sm font-semibold text-red-800">No carrier is up for: {unserved.join(', ')}</p>}
      <ul className="space-y-3" aria-label="Carriers">
        {carriers.map((c) => (
          <li key={c.id} className="rounded-md border border-slate-200 p-3">
            <h4 className="font-semibold">{c.id} <span className="font-normal text-slate-700">({c.address})</span></h4>
            <p className="text-sm">
              <span className={c.state === 'bound' ? 'text-green-800' : 'font-semibold text-red-800'}>{c.state}</span>, {availability(c)}
            </p>
            <dl className="my-2 grid grid-cols-2 gap-2 text-sm sm:grid-cols-4">
              <div><dt className="text-slate-700">In flight</dt><dd className="font-semibold">{c.in_flight}</dd></div>
              <div><dt className="text-slate-700">Submits/s</dt><dd className="font-semibold">{rate(c.submits_per_second)}</dd></div>
              <div><dt className="text-slate-700">Errors</dt><dd className="font-semibold">{c.errors}</dd></div>
              <div><dt className="text-slate-700">Receipts waiting</dt><dd className="font-semibold">{c.receipts_waiting}</dd></div>
            </dl>
            <BindTable carrier={c} />
          </li>
        ))}
      </ul>
      {routes.length > 0 && (
        <div>
          <h3 className="mb-1 font-semibold">Routes</h3>
          <ol className="list-decimal space-y-1 pl-5 text-sm" aria-label="Routes">
            {routes.map((r, i) => <li key={i}>{routeWhen(r)} → {r.carriers.join(', then ')}</li>)}
          </ol>
        </div>
      )}
    </div>
  );
}
