import type { SessionInfo } from '../session.ts';
import { Card, Page } from '../ui.tsx';

// Time zone, quiet hours and the link-tracking default arrive with GET/PUT /settings (issue 12); until then this
// page shows the account as it is.
export default function SettingsPage({ session }: { session: SessionInfo }) {
  return (
    <Page title="Settings">
      <Card title="Account">
        <dl className="grid gap-3 text-sm sm:grid-cols-2">
          <div><dt className="text-slate-600">Business</dt><dd>{session.account.business_name}</dd></div>
          <div><dt className="text-slate-600">Account id</dt><dd><code>{session.account.id}</code></dd></div>
          <div><dt className="text-slate-600">Status</dt><dd>{session.account.account_status}</dd></div>
          <div><dt className="text-slate-600">Sub-accounts</dt><dd>{session.account.hierarchy_enabled ? 'enabled' : 'not enabled'}</dd></div>
          <div><dt className="text-slate-600">Signed in as</dt><dd>{session.user.email}</dd></div>
          <div><dt className="text-slate-600">Your permissions</dt><dd>{[session.user.can_send && 'send', session.user.can_billing && 'billing'].filter(Boolean).join(', ') || 'read only'}</dd></div>
        </dl>
      </Card>
      <Card title="Sending">
        <p className="text-sm text-slate-700">Time zone, quiet hours and the link-tracking default are not yet adjustable on this server.</p>
      </Card>
    </Page>
  );
}
