import { useState } from 'react';
import { useLocation } from 'react-router';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { createColumnHelper } from '@tanstack/react-table';
import { ApiError, csrfHeader, DELETE, GET, PATCH, POST, type Body, type Res } from '../lib/api.ts';
import { When } from '../zone.tsx';
import { Button, Card, Checkbox, DataTable, ErrorText, Input, Loading, Notice, Pager, Secret, Select, Status } from '../ui.tsx';
import { AuthFrame } from './auth.tsx';
import { OperatorLogin, OperatorSetup, type OperatorSession } from './operator-sign-in.tsx';
import { PipelinePanel } from './operator-pipeline.tsx';
import { NumberPool, SenderIdList } from './operator-lists.tsx';
import { Outbox } from './operator-outbox.tsx';
import { SenderIdRequests } from './operator-sender-requests.tsx';

type Account = Res<'/admin/accounts'>['accounts'][number];
type PoolCountry = Body<'/admin/numbers'>['country'];

/** The operator console: its own session (a named operator's, or the operator token's), its own CSRF token. */
export default function OperatorPage() {
  const qc = useQueryClient();
  const location = useLocation();
  const session = useQuery({
    queryKey: ['operator'],
    queryFn: () => GET('/session/operator').catch((err: unknown) => {
      if (err instanceof ApiError && err.status === 401) return null;
      throw err;
    }),
  });
  if (session.isPending) return <main className="p-6"><Loading /></main>;
  if (session.error) return <AuthFrame title="Operator console"><ErrorText error={session.error} /></AuthFrame>;
  const signedIn = (s: OperatorSession) => qc.setQueryData(['operator'], s);
  if (!session.data) {
    return location.pathname.startsWith('/operator/setup') ? <OperatorSetup onDone={signedIn} /> : <OperatorLogin onDone={signedIn} />;
  }
  const csrf = session.data.csrf_token;
  const signOut = async () => { await DELETE('/session/operator', { headers: csrfHeader(csrf) }).catch(() => undefined); qc.setQueryData(['operator'], null); };
  return (
    <div className="min-h-screen">
      <header className="flex items-center justify-between border-b border-slate-200 bg-white p-4">
        <p className="text-lg font-bold text-blue-800">Tasman operator console</p>
        <div className="flex items-center gap-4">
          {session.data.operator && <span>Signed in as {session.data.operator.name}</span>}
          <button type="button" className="underline" onClick={() => void signOut()}>Sign out</button>
        </div>
      </header>
      <main id="main" className="space-y-5 p-4 md:p-8">
        <h1 className="text-2xl font-semibold">Operator console</h1>
        <PipelinePanel />
        <Accounts csrf={csrf} />
        <div className="grid gap-4 lg:grid-cols-2">
          <CreateAccount csrf={csrf} />
          <SenderIds csrf={csrf} />
          <PoolNumbers csrf={csrf} />
        </div>
        <SenderIdRequests csrf={csrf} />
        <SenderIdList />
        <NumberPool />
        <Outbox />
      </main>
    </div>
  );
}

const PAGE = 20;

function Accounts({ csrf }: { csrf: string }) {
  const qc = useQueryClient();
  const [q, setQ] = useState('');
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(0);
  const [amounts, setAmounts] = useState<Record<string, string>>({});
  const list = useQuery({
    queryKey: ['op', 'accounts', search, page],
    queryFn: () => GET('/admin/accounts', { params: { query: { q: search, limit: PAGE, offset: page * PAGE } } }),
    placeholderData: keepPreviousData,
  });
  const change = useMutation({
    mutationFn: ({ a, body }: { a: Account; body: Body<'/admin/accounts/{id}', 'patch'> }) =>
      PATCH('/admin/accounts/{id}', { params: { path: { id: a.account_id } }, body, headers: csrfHeader(csrf) }),
    onSuccess: () => { void qc.invalidateQueries({ queryKey: ['op', 'accounts'] }); },
  });
  const topUp = useMutation({
    mutationFn: (a: Account) => POST('/admin/accounts/{id}/credits', { params: { path: { id: a.account_id } }, body: { amount: Number(amounts[a.account_id]) }, headers: csrfHeader(csrf) }),
    onSuccess: () => { void qc.invalidateQueries({ queryKey: ['op', 'accounts'] }); },
  });
  const col = createColumnHelper<Account>();
  const columns = [
    col.accessor('business_name', { header: 'Account', cell: (c) => <><span className="font-semibold">{c.getValue()}</span><br /><span className="text-xs text-slate-700">{c.row.original.email}</span></> }),
    col.accessor('credits', { header: 'Credits' }),
    col.accessor('account_status', { header: 'Status', cell: (c) => <Status value={c.getValue()} /> }),
    col.accessor('created_at', { header: 'Created', cell: (c) => <When iso={c.getValue()} /> }),
    col.display({
      id: 'topup', header: 'Top up',
      cell: (c) => {
        const a = c.row.original;
        return (
          <form className="flex flex-wrap items-end gap-2" noValidate onSubmit={(e) => { e.preventDefault(); topUp.mutate(a); }}>
            <div className="flex flex-col gap-1">
              {/* Visible as "Credits to add"; the account's name makes each row's field distinct to a screen reader. */}
              <label className="text-xs font-medium" htmlFor={`amt-${a.account_id}`}>Credits to add<span className="sr-only"> to {a.business_name}</span></label>
              <input id={`amt-${a.account_id}`} type="number" min={1} className="w-24 rounded-md border border-slate-400 px-2 py-1" value={amounts[a.account_id] ?? ''}
                onChange={(e) => setAmounts({ ...amounts, [a.account_id]: e.target.value })} />
            </div>
            <Button type="submit" kind="secondary" aria-label={`Top up ${a.business_name}`}>Top up</Button>
            <RowError error={topUp.error} failed={topUp.variables?.account_id === a.account_id} />
          </form>
        );
      },
    }),
    col.display({
      id: 'actions', header: 'Settings',
      cell: (c) => {
        const a = c.row.original;
        return (
          <div className="space-y-1">
            <Checkbox label="Sub-accounts" checked={a.hierarchy_enabled} onChange={(e) => change.mutate({ a, body: { hierarchy_enabled: e.target.checked } })} />
            {a.account_status !== 'closed' && (
              <Button kind={a.account_status === 'active' ? 'danger' : 'secondary'} aria-label={`${a.account_status === 'active' ? 'Suspend' : 'Reactivate'} ${a.business_name}`}
                onClick={() => change.mutate({ a, body: { account_status: a.account_status === 'active' ? 'suspended' : 'active' } })}>
                {a.account_status === 'active' ? 'Suspend' : 'Reactivate'}
              </Button>
            )}
            <RowError error={change.error} failed={change.variables?.a.account_id === a.account_id} />
          </div>
        );
      },
    }),
  ];
  return (
    <Card title="Accounts">
      <form role="search" className="mb-3 flex flex-col gap-2 sm:flex-row sm:items-end" onSubmit={(e) => { e.preventDefault(); setSearch(q); setPage(0); }}>
        <Input label="Search accounts" value={q} onChange={(e) => setQ(e.target.value)} hint="Name, email or id" />
        <Button type="submit">Search</Button>
      </form>
      <ErrorText error={list.error} />
      {topUp.data && <Notice>New balance: {topUp.data.credits} credits.</Notice>}
      {list.isPending ? <Loading /> : <DataTable data={list.data?.accounts ?? []} columns={columns} caption="Accounts" empty="No account matches." />}
      <Pager page={page} hasNext={(list.data?.accounts.length ?? 0) === PAGE} onPage={setPage} />
    </Card>
  );
}

/** A failed action's message in the row whose control it concerns, not above the table. */
function RowError({ error, failed }: { error: unknown; failed: boolean }) {
  if (!error || !failed) return null;
  return <p role="alert" className="w-full text-sm text-red-700">{error instanceof Error ? error.message : String(error)}</p>;
}

function CreateAccount({ csrf }: { csrf: string }) {
  const qc = useQueryClient();
  const [form, setForm] = useState({ business_name: '', email: '', credits: '5', hierarchy: false });
  const create = useMutation({
    mutationFn: () => POST('/admin/accounts', { body: {
      business_name: form.business_name, email: form.email, credits: Number(form.credits), hierarchy_enabled: form.hierarchy,
    }, headers: csrfHeader(csrf) }),
    onSuccess: () => { void qc.invalidateQueries({ queryKey: ['op', 'accounts'] }); },
  });
  const err = create.error instanceof ApiError ? create.error : null;
  return (
    <Card title="Create an account">
      <form className="space-y-3" onSubmit={(e) => { e.preventDefault(); create.mutate(); }} noValidate>
        <Input label="Business name" value={form.business_name} onChange={(e) => setForm({ ...form, business_name: e.target.value })} error={err?.forField('business_name')} />
        <Input label="Owner email" type="email" value={form.email} onChange={(e) => setForm({ ...form, email: e.target.value })} error={err?.forField('email')} />
        <Input label="Credits" type="number" min={0} value={form.credits} onChange={(e) => setForm({ ...form, credits: e.target.value })} />
        <Checkbox label="Enable sub-accounts" checked={form.hierarchy} onChange={(e) => setForm({ ...form, hierarchy: e.target.checked })} />
        <Button type="submit" disabled={create.isPending}>Create account</Button>
      </form>
      {err && !err.details.length && <ErrorText error={err} />}
      {create.data && <div className="mt-3 space-y-2"><Secret label="Owner invite link" value={create.data.owner_invite_url} /><Secret label="First API key" value={create.data.api_key} /></div>}
    </Card>
  );
}

function SenderIds({ csrf }: { csrf: string }) {
  const [form, setForm] = useState({ account_id: '', sender_id: '', abn: '' });
  const qc = useQueryClient();
  const register = useMutation({
    mutationFn: () => POST('/admin/sender-ids', { body: { ...form, ...(form.account_id ? {} : { account_id: undefined }) }, headers: csrfHeader(csrf) }),
    onSuccess: () => { void qc.invalidateQueries({ queryKey: ['op', 'sender-ids'] }); },
  });
  const err = register.error instanceof ApiError ? register.error : null;
  return (
    <Card title="Register a Sender ID">
      <form className="space-y-3" onSubmit={(e) => { e.preventDefault(); register.mutate(); }} noValidate>
        <Input label="Sender ID" value={form.sender_id} maxLength={11} onChange={(e) => setForm({ ...form, sender_id: e.target.value })} error={err?.forField('sender_id')} />
        <Input label="ABN" value={form.abn} onChange={(e) => setForm({ ...form, abn: e.target.value })} error={err?.forField('abn')} />
        <Input label="Account id (optional)" value={form.account_id} onChange={(e) => setForm({ ...form, account_id: e.target.value })} error={err?.forField('account_id')} />
        <Button type="submit">Register</Button>
      </form>
      {err && !err.details.length && <ErrorText error={err} />}
      {register.data && <Notice>Registered {register.data.sender_id}.</Notice>}
    </Card>
  );
}

function PoolNumbers({ csrf }: { csrf: string }) {
  const [form, setForm] = useState<{ number: string; country: PoolCountry; price_monthly: string }>({ number: '', country: 'AU', price_monthly: '0' });
  const qc = useQueryClient();
  const add = useMutation({
    mutationFn: () => POST('/admin/numbers', { body: { number: form.number, country: form.country, price_monthly: Number(form.price_monthly) }, headers: csrfHeader(csrf) }),
    onSuccess: () => { void qc.invalidateQueries({ queryKey: ['op', 'numbers'] }); },
  });
  const err = add.error instanceof ApiError ? add.error : null;
  return (
    <Card title="Add a number to the pool">
      <form className="space-y-3" onSubmit={(e) => { e.preventDefault(); add.mutate(); }} noValidate>
        <Input label="Number" value={form.number} onChange={(e) => setForm({ ...form, number: e.target.value })} error={err?.code === 'invalid_number' ? err.message : err?.forField('number')} />
        <Select label="Country" value={form.country} onChange={(e) => setForm({ ...form, country: e.target.value as PoolCountry })}><option value="AU">Australia</option><option value="NZ">New Zealand</option></Select>
        <Input label="Price a month" type="number" min={0} step="0.01" value={form.price_monthly} onChange={(e) => setForm({ ...form, price_monthly: e.target.value })} />
        <Button type="submit">Add number</Button>
      </form>
      {err && err.code !== 'invalid_number' && !err.details.length && <ErrorText error={err} />}
      {add.data && <Notice>Added {add.data.number}.</Notice>}
    </Card>
  );
}
