import { inQuietHours, isoToZoned, zonedToIso } from '../lib/zoned.ts';
import type { Body } from '../lib/api.ts';
import type { AccountSettings } from '../settings.ts';
import { Checkbox, Input } from '../ui.tsx';

/** `linkTracking` null: the account's default (Settings), not sent. */
export interface SendOptions { later: boolean; local: string; urgent: boolean; linkTracking: boolean | null }
type SendExtras = Pick<Body<'/send'>, 'urgent' | 'link_tracking' | 'send_at'>;
export const NO_OPTIONS: SendOptions = { later: false, local: '', urgent: false, linkTracking: null };

/** What the options add to a send body, or why they cannot: the picker's time read in the account's zone. */
export function optionsBody(o: SendOptions, s: AccountSettings): { body: SendExtras; error?: string } {
  const body: SendExtras = {};
  if (s.quiet_hours && o.urgent) body.urgent = true;
  if (o.linkTracking !== null && o.linkTracking !== s.link_tracking) body.link_tracking = o.linkTracking;
  if (!o.later) return { body };
  if (!o.local) return { body, error: 'Choose the date and time to send at' };
  const iso = zonedToIso(o.local, s.time_zone);
  if (!iso) return { body, error: `That time does not exist in ${s.time_zone} (the clocks skip it)` };
  return { body: { ...body, send_at: iso } };
}

/** Link tracking, schedule for later (a date-time picker in the account's zone) and quiet hours. */
export function SendOptionsFields({ value, onChange, settings, error }: {
  value: SendOptions; onChange: (o: SendOptions) => void; settings: AccountSettings; error?: string | undefined;
}) {
  const zone = settings.time_zone;
  const now = Date.now();
  const quiet = settings.quiet_hours;
  return (
    <fieldset className="space-y-3 rounded-md border border-slate-300 p-3">
      <legend className="px-1 text-sm font-medium">Links and timing</legend>
      <Checkbox label="Track link clicks (each link becomes a short link)" checked={value.linkTracking ?? settings.link_tracking}
        onChange={(e) => onChange({ ...value, linkTracking: e.target.checked })} />
      <Checkbox label="Schedule for later" checked={value.later}
        onChange={(e) => onChange({ ...value, later: e.target.checked, local: value.local || isoToZoned(now + 3_600_000, zone) })} />
      {value.later && (
        <Input label={`Send at (${zone} time)`} type="datetime-local" value={value.local} error={error}
          min={isoToZoned(now, zone)} max={isoToZoned(now + 35 * 86_400_000, zone)}
          onChange={(e) => onChange({ ...value, local: e.target.value })}
          hint="Up to 35 days ahead. Credits are taken now and returned if you cancel it before it goes." />
      )}
      {quiet ? (
        <>
          <p className="text-sm text-slate-700">
            Quiet hours {quiet.start}–{quiet.end}: a message that would arrive then waits until {quiet.end} in the
            recipient&apos;s time ({zone} for Australian numbers, Pacific/Auckland for New Zealand).
          </p>
          {value.later && !value.urgent && inQuietHours(value.local, quiet) && (
            <p className="text-sm font-semibold text-amber-900">
              {value.local.slice(11)} is inside quiet hours: Australian recipients get it at {quiet.end} instead.
            </p>
          )}
          <Checkbox label="Urgent: send even in quiet hours" checked={value.urgent} onChange={(e) => onChange({ ...value, urgent: e.target.checked })} />
        </>
      ) : <p className="text-sm text-slate-700">No quiet hours are set (see Settings).</p>}
    </fieldset>
  );
}
