import { useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError, PUT } from '../lib/api.ts';
import type { SessionInfo } from '../session.ts';
import { abilities, ROLE_WORDS } from './team-words.ts';
import { useAccountSettings, type AccountSettings } from '../settings.ts';
import { Button, Card, Checkbox, ErrorText, Input, Loading, Notice, Page, Select } from '../ui.tsx';

// Australian numbers carry no state, so the account's zone is theirs; New Zealand numbers always use Auckland's.
const ZONES = ['Australia/Sydney', 'Australia/Melbourne', 'Australia/Brisbane', 'Australia/Adelaide', 'Australia/Darwin',
  'Australia/Perth', 'Australia/Hobart', 'Australia/Lord_Howe', 'Pacific/Auckland'];

function SendingSettings({ current }: { current: AccountSettings }) {
  const qc = useQueryClient();
  const [zone, setZone] = useState(current.time_zone);
  const [quietOn, setQuietOn] = useState(current.quiet_hours !== null);
  const [start, setStart] = useState(current.quiet_hours?.start ?? '21:00');
  const [end, setEnd] = useState(current.quiet_hours?.end ?? '08:00');
  const [tracking, setTracking] = useState(current.link_tracking);
  const [country, setCountry] = useState(current.country);
  const [lowBalance, setLowBalance] = useState(current.low_balance_threshold === null ? '' : String(current.low_balance_threshold));
  const save = useMutation({
    mutationFn: () => PUT('/settings', { body: {
      time_zone: zone, quiet_hours: quietOn ? { start, end } : null, link_tracking: tracking, country,
      low_balance_threshold: lowBalance.trim() === '' ? null : Number(lowBalance),
    } }),
    onSuccess: (r) => { qc.setQueryData(['settings'], r.settings); },
  });
  const err = save.error instanceof ApiError ? save.error : null;
  const zoneError = err?.forField('time_zone');
  const quietError = err?.forField('start') ?? err?.forField('end') ?? err?.forField('quiet_hours');
  const lowBalanceError = err?.forField('low_balance_threshold');
  const submit = (e: FormEvent) => { e.preventDefault(); save.mutate(); };
  return (
    <form onSubmit={submit} className="space-y-4" noValidate>
      <div className="max-w-sm">
        <Select label="Local numbers are in" value={country} onChange={(e) => setCountry(e.target.value as AccountSettings['country'])}
          hint="How a number written without its country code is read: in Australia 04… is a mobile and 02 9999 1234 a landline (refused); in New Zealand 02… is a mobile. Numbers written with +61 or +64 are read as written.">
          <option value="AU">Australia</option>
          <option value="NZ">New Zealand</option>
        </Select>
      </div>
      <div className="max-w-sm">
        <Select label="Time zone" value={zone} onChange={(e) => setZone(e.target.value)} error={zoneError}
          hint="Your Australian recipients' zone, and the zone of the Send page's date-time picker">
          {[...new Set([current.time_zone, ...ZONES])].map((z) => <option key={z} value={z}>{z}</option>)}
        </Select>
      </div>
      <fieldset className="space-y-3 rounded-md border border-slate-300 p-3">
        <legend className="px-1 text-sm font-medium">Quiet hours</legend>
        <Checkbox label="Hold messages that would arrive at night" checked={quietOn} onChange={(e) => setQuietOn(e.target.checked)} />
        {quietOn && (
          <div className="grid max-w-md gap-3 sm:grid-cols-2">
            <Input label="Quiet from" type="time" value={start} onChange={(e) => setStart(e.target.value)} error={quietError} />
            <Input label="Quiet until" type="time" value={end} onChange={(e) => setEnd(e.target.value)} />
          </div>
        )}
        <p className="text-sm text-slate-700">
          In the recipient&apos;s local time. A held message waits as scheduled until the window ends; a send marked urgent
          goes at once.
        </p>
      </fieldset>
      <Checkbox label="Track link clicks by default (links become short links)" checked={tracking} onChange={(e) => setTracking(e.target.checked)} />
      <div className="max-w-sm">
        <Input label="Email the owner when the balance falls below (credits)" type="number" inputMode="numeric" min={1} value={lowBalance}
          onChange={(e) => setLowBalance(e.target.value)} error={lowBalanceError}
          hint="Once each time a send or credit move takes the balance below this; again after a top-up. Empty: never." />
      </div>
      {err && !zoneError && !quietError && !lowBalanceError && <ErrorText error={err} />}
      <Button type="submit" disabled={save.isPending}>Save settings</Button>
      {save.isSuccess && <Notice>Settings saved.</Notice>}
    </form>
  );
}

export default function SettingsPage({ session }: { session: SessionInfo }) {
  const account = useAccountSettings();
  return (
    <Page title="Settings">
      <Card title="Sending">
        <ErrorText error={account.error} />
        {/* The form starts from the saved settings, so it appears once they have loaded. */}
        {account.isPending ? <Loading /> : account.data && <SendingSettings current={account.data} />}
      </Card>
      <Card title="Account">
        <dl className="grid gap-3 text-sm sm:grid-cols-2">
          <div><dt className="text-slate-600">Business</dt><dd>{session.account.business_name}</dd></div>
          <div><dt className="text-slate-600">Account id</dt><dd><code>{session.account.id}</code></dd></div>
          <div><dt className="text-slate-600">Status</dt><dd>{session.account.account_status}</dd></div>
          <div><dt className="text-slate-600">Sub-accounts</dt><dd>{session.account.hierarchy_enabled ? 'Enabled' : 'Not enabled'}</dd></div>
          <div><dt className="text-slate-600">Signed in as</dt><dd>{session.user.email}</dd></div>
          <div><dt className="text-slate-600">You can</dt><dd>{ROLE_WORDS[session.user.role]}: {abilities(session.user).toLowerCase()}</dd></div>
        </dl>
      </Card>
    </Page>
  );
}
