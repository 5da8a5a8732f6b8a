import { lazy, Suspense, useState } from 'react';
import { Navigate, NavLink, Route, Routes, useLocation, useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { DELETE } from './lib/api.ts';
import { useSession, type SessionInfo } from './session.ts';
import { Loading } from './ui.tsx';
import { useAccountSettings } from './settings.ts';
import { ZoneContext } from './zone.tsx';
import { useUnreadReplies } from './unread.ts';
import { LoginPage, InvitePage } from './pages/auth.tsx';
import { ForgotPage, ResetPage } from './pages/password-reset.tsx';
import { OverviewPage } from './pages/overview.tsx';
import { EnrolFirst } from './pages/enrol-first.tsx';

// The first page (overview or sign-in) is in the main bundle; the others load when first opened.
const SendPage = lazy(() => import('./pages/send.tsx'));
const MessagesPage = lazy(() => import('./pages/messages.tsx'));
const MessagePage = lazy(() => import('./pages/message.tsx'));
const CampaignsPage = lazy(() => import('./pages/campaigns.tsx'));
const InboxPage = lazy(() => import('./pages/inbox.tsx'));
const OptoutsPage = lazy(() => import('./pages/optouts.tsx'));
const ContactsPage = lazy(() => import('./pages/contacts.tsx'));
const TemplatesPage = lazy(() => import('./pages/templates.tsx'));
const NumbersPage = lazy(() => import('./pages/numbers.tsx'));
const KeysPage = lazy(() => import('./pages/keys.tsx'));
const WebhooksPage = lazy(() => import('./pages/webhooks.tsx'));
const TeamPage = lazy(() => import('./pages/team.tsx'));
const SubAccountsPage = lazy(() => import('./pages/sub-accounts.tsx'));
const ReportsPage = lazy(() => import('./pages/reports.tsx'));
const SettingsPage = lazy(() => import('./pages/settings.tsx'));
const SecurityPage = lazy(() => import('./pages/security.tsx'));
const AuditPage = lazy(() => import('./pages/audit.tsx'));
const OperatorPage = lazy(() => import('./pages/operator.tsx'));

export function App() {
  return (
    <Suspense fallback={<main className="p-6"><Loading /></main>}>
      <Routes>
        <Route path="/login" element={<LoginPage />} />
        <Route path="/invite" element={<InvitePage />} />
        <Route path="/forgot" element={<ForgotPage />} />
        <Route path="/reset" element={<ResetPage />} />
        <Route path="/operator/*" element={<OperatorPage />} />
        <Route path="/*" element={<SignedIn />} />
      </Routes>
    </Suspense>
  );
}

function SignedIn() {
  const session = useSession();
  const location = useLocation();
  if (session.isPending) return <main className="p-6"><Loading /></main>;
  if (!session.data) return <Navigate to="/login" replace state={{ from: location.pathname }} />;
  // The owner requires two-factor authentication and this user has none yet: the API answers nothing else.
  if (session.data.account.two_factor_required && !session.data.user.two_factor) return <EnrolFirst session={session.data} />;
  return <Shell session={session.data} />;
}

function navFor(s: SessionInfo) {
  return [
    ['/', 'Overview'], ['/send', 'Send'], ['/messages', 'Messages'], ['/campaigns', 'Campaigns'], ['/inbox', 'Inbox'],
    ['/contacts', 'Contacts'], ['/templates', 'Templates'], ['/optouts', 'Opt-outs'], ['/numbers', 'Numbers & Sender IDs'], ['/developers/keys', 'API keys'], ['/developers/webhooks', 'Webhooks'],
    ['/team', 'Team'], ...(s.account.hierarchy_enabled && !s.account.parent_account_id ? [['/sub-accounts', 'Sub-accounts']] : []),
    // The audit log is for the owner and admins (the manage permission): members do not see it.
    ['/reports', 'Reports'], ...(s.user.permissions?.includes('manage') ?? true ? [['/audit', 'Audit log']] : []),
    ['/settings', 'Settings'], ['/security', 'Security'],
  ] as Array<[string, string]>;
}

function Shell({ session }: { session: SessionInfo }) {
  const [open, setOpen] = useState(false);
  const navigate = useNavigate();
  const qc = useQueryClient();
  // Every date in the shell is shown in the account's zone (Settings), not the browser's.
  const zone = useAccountSettings().settings.time_zone;
  const unread = useUnreadReplies();
  const signOut = async () => {
    await DELETE('/session').catch(() => undefined);
    qc.clear();
    navigate('/login');
  };
  return (
    <ZoneContext.Provider value={zone}>
      <div className="min-h-screen md:flex">
        <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:bg-white focus:p-2">Skip to content</a>
        {/* Said once, where the Inbox link points to it: the link's name stays "Inbox". */}
        {unread ? <p id="unread-replies" className="sr-only">{unread} unread {unread === 1 ? 'reply' : 'replies'}</p> : null}
        <header className="border-b border-slate-200 bg-white md:w-60 md:shrink-0 md:border-b-0 md:border-r">
          <div className="flex items-center justify-between p-4">
            <div>
              <p className="text-lg font-bold text-blue-800">Tasman</p>
              <p className="text-sm text-slate-700">{session.account.business_name}</p>
              <p className="text-xs text-slate-700">Times in {zone}</p>
            </div>
            <button type="button" className="rounded-md border border-slate-400 px-3 py-1 text-sm md:hidden" aria-expanded={open} aria-controls="main-nav" onClick={() => setOpen(!open)}>Menu</button>
          </div>
          <nav id="main-nav" aria-label="Main" className={`${open ? 'block' : 'hidden'} px-2 pb-4 md:block`}>
            <ul className="space-y-1">
              {navFor(session).map(([to, label]) => (
                <li key={to}>
                  <NavLink to={to} end={to === '/'} onClick={() => setOpen(false)} {...(to === '/inbox' && unread ? { 'aria-describedby': 'unread-replies' } : {})}
                    className={({ isActive }) => `flex items-center justify-between rounded-md px-3 py-2 text-sm ${isActive ? 'bg-blue-100 font-semibold text-blue-900' : 'text-slate-800 hover:bg-slate-100'}`}>
                    {label}
                    {to === '/inbox' && unread ? <UnreadBadge count={unread} /> : null}
                  </NavLink>
                </li>
              ))}
            </ul>
            <div className="mt-4 border-t border-slate-200 px-3 pt-3 text-sm">
              <p className="truncate text-slate-700">{session.user.email}</p>
              <button type="button" className="mt-2 underline" onClick={() => void signOut()}>Sign out</button>
              {/* The API reference (OpenAPI, served by the API itself), for developers wiring the account up. */}
              <a href="/docs/" className="mt-2 block underline">API reference</a>
            </div>
          </nav>
        </header>
        <main id="main" className="flex-1 p-4 md:p-8">
          <Suspense fallback={<Loading />}>
            <Routes>
              <Route index element={<OverviewPage />} />
              <Route path="send" element={<SendPage session={session} />} />
              <Route path="messages" element={<MessagesPage session={session} />} />
              <Route path="messages/:id" element={<MessagePage session={session} />} />
              <Route path="campaigns/*" element={<CampaignsPage />} />
              <Route path="inbox" element={<InboxPage session={session} />} />
              <Route path="optouts" element={<OptoutsPage />} />
              <Route path="contacts" element={<ContactsPage maySend={session.user.can_send} />} />
              <Route path="templates" element={<TemplatesPage maySend={session.user.can_send} />} />
              <Route path="numbers" element={<NumbersPage session={session} />} />
              <Route path="developers/keys" element={<KeysPage session={session} />} />
              <Route path="developers/webhooks" element={<WebhooksPage />} />
              <Route path="team" element={<TeamPage session={session} />} />
              <Route path="sub-accounts/*" element={<SubAccountsPage session={session} />} />
              <Route path="reports" element={<ReportsPage />} />
              <Route path="audit" element={<AuditPage session={session} />} />
              <Route path="settings" element={<SettingsPage session={session} />} />
            <Route path="security" element={<SecurityPage session={session} />} />
              <Route path="*" element={<p>That page does not exist.</p>} />
            </Routes>
          </Suspense>
        </main>
      </div>
    </ZoneContext.Provider>
  );
}

/** The Inbox link's count of unread replies; its words are the link's description (#unread-replies). */
function UnreadBadge({ count }: { count: number }) {
  return (
    <span aria-hidden="true" data-testid="unread-badge" className="ml-2 min-w-6 rounded-full bg-blue-700 px-2 py-0.5 text-center text-xs font-semibold text-white">
      {count > 99 ? '99+' : count}
    </span>
  );
}
