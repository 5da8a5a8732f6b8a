import { useState, type FormEvent } from 'react';
import { Link, Route, Routes, useParams } from 'react-router';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { createColumnHelper } from '@tanstack/react-table';
import { ApiError, DELETE, GET, POST, PUT, type Res } from '../lib/api.ts';
import { percent } from '../lib/format.ts';
import { When } from '../zone.tsx';
import type { SessionInfo } from '../session.ts';
import { Button, Card, Checkbox, DataTable, ErrorText, Input, Loading, Notice, Page, Secret, Status } from '../ui.tsx';
import { KeyTable } from './keys.tsx';
import { InviteForm, UserTable, type User } from './team.tsx';
import { SubChart, SubNumbers } from './sub-account-extras.tsx';

type Sub = Res<'/accounts'>['accounts'][number];

const col = createColumnHelper<Sub>();
const columns = [
  col.accessor('business_name', { header: 'Sub-account', cell: (c) => <Link className="underline" to={`/sub-accounts/${c.row.original.id}`}>{c.getValue()}</Link> }),
  col.accessor('credits', { header: 'Balance' }),
  col.accessor('account_status', { header: 'Status', cell: (c) => <Status value={c.getValue()} /> }),
  col.accessor('created_at', { header: 'Created', cell: (c) => <When iso={c.getValue()} /> }),
];

function CreateSub() {
  const qc = useQueryClient();
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [seed, setSeed] = useState('0');
  const create = useMutation({
    mutationFn: () => POST('/accounts', { body: { business_name: name, ...(email ? { email } : {}), seed_credits: Number(seed) || 0 } }),
    onSuccess: () => { setName(''); setEmail(''); setSeed('0'); void qc.invalidateQueries({ queryKey: ['accounts'] }); void qc.invalidateQueries({ queryKey: ['balance'] }); },
  });
  const err = create.error instanceof ApiError ? create.error : null;
  const submit = (e: FormEvent) => { e.preventDefault(); create.mutate(); };
  return (
    <form onSubmit={submit} className="grid gap-3 sm:grid-cols-4 sm:items-end" noValidate>
      <Input label="Business name" value={name} onChange={(e) => setName(e.target.value)} error={err?.forField('business_name')} />
      <Input label="Email (optional)" type="email" value={email} onChange={(e) => setEmail(e.target.value)} error={err?.forField('email') ?? (err?.code === 'email_taken' ? err.message : undefined)} />
      <Input label="Starting credits" type="number" min={0} value={seed} onChange={(e) => setSeed(e.target.value)} error={err?.code === 'insufficient_credits' ? err.message : err?.forField('seed_credits')} />
      <Button type="submit" disabled={create.isPending}>Create sub-account</Button>
      {create.isSuccess && <Notice>Sub-account created.</Notice>}
    </form>
  );
}

function SubList() {
  const list = useQuery({ queryKey: ['accounts'], queryFn: () => GET('/accounts') });
  const group = useQuery({ queryKey: ['report', 'group'], queryFn: () => GET('/report/group') });
  return (
    <Page title="Sub-accounts">
      <Card title="Create a sub-account"><CreateSub /></Card>
      <ErrorText error={list.error} />
      {list.isPending ? <Loading /> : <DataTable data={list.data?.accounts ?? []} columns={columns} caption="Sub-accounts" empty="No sub-accounts yet." pageSize={20} />}
      {group.data && (
        <Card title="Group report (last 30 days)">
          <p className="mb-2 text-sm">{group.data.grand_total.messages.total} messages, {group.data.grand_total.credits_consumed} credits across the group.</p>
          <ul className="text-sm">{group.data.accounts.map((a) => <li key={a.account_id}>{a.business_name}: {a.credits_consumed} credits, delivery {percent(a.delivery_rate)}</li>)}</ul>
        </Card>
      )}
    </Page>
  );
}

function Credits({ id, canBilling }: { id: string; canBilling: boolean }) {
  const qc = useQueryClient();
  const [amount, setAmount] = useState('');
  const move = useMutation({
    mutationFn: (direction: 'allocate' | 'recall') => POST(direction === 'allocate' ? '/account/{id}/credits/allocate' : '/account/{id}/credits/recall', { params: { path: { id } }, body: { amount: Number(amount) } }),
    onSuccess: () => { setAmount(''); void qc.invalidateQueries({ queryKey: ['sub', id] }); void qc.invalidateQueries({ queryKey: ['balance'] }); },
  });
  const err = move.error instanceof ApiError ? move.error : null;
  return (
    <Card title="Credits">
      {!canBilling && <p className="mb-2 text-sm">Moving credits needs permission to move credits and buy numbers: ask an admin or the owner.</p>}
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
        <Input label="Amount" type="number" min={1} value={amount} onChange={(e) => setAmount(e.target.value)} error={err?.message} />
        <Button disabled={!canBilling || move.isPending} onClick={() => move.mutate('allocate')}>Allocate</Button>
        <Button kind="secondary" disabled={!canBilling || move.isPending} onClick={() => move.mutate('recall')}>Recall</Button>
      </div>
      {move.data && <Notice>Sub-account balance {move.data.credits}; yours {move.data.parent_credits}.</Notice>}
    </Card>
  );
}

function SubDetail({ session }: { session: SessionInfo }) {
  const { id = '' } = useParams();
  const qc = useQueryClient();
  const account = useQuery({ queryKey: ['sub', id], queryFn: () => GET('/account/{id}', { params: { path: { id } } }) });
  const keys = useQuery({ queryKey: ['sub', id, 'keys'], queryFn: () => GET('/account/{id}/keys', { params: { path: { id } } }) });
  const users = useQuery({ queryKey: ['sub', id, 'users'], queryFn: () => GET('/account/{id}/users', { params: { path: { id } } }) });
  const report = useQuery({ queryKey: ['sub', id, 'report'], queryFn: () => GET('/account/{id}/report', { params: { path: { id } } }) });
  const newKey = useMutation({ mutationFn: () => POST('/account/{id}/key', { params: { path: { id } }, body: { name: 'Dashboard' } }), onSuccess: () => { void qc.invalidateQueries({ queryKey: ['sub', id, 'keys'] }); } });
  const revoke = useMutation({ mutationFn: (keyId: string) => DELETE('/account/{id}/key/{keyId}', { params: { path: { id, keyId } } }), onSuccess: () => { void qc.invalidateQueries({ queryKey: ['sub', id, 'keys'] }); } });
  const access = useMutation({ mutationFn: (team: boolean) => PUT('/account/{id}/access', { params: { path: { id } }, body: { team_access_from_parent: team } }), onSuccess: () => { void qc.invalidateQueries({ queryKey: ['sub', id] }); } });
  const removeUser = useMutation({ mutationFn: (u: User) => DELETE('/account/{id}/users/{memberId}', { params: { path: { id, memberId: u.id } } }), onSuccess: () => { void qc.invalidateQueries({ queryKey: ['sub', id, 'users'] }); } });
  if (account.isPending) return <Loading />;
  if (!account.data) return <Page title="Sub-account"><ErrorText error={account.error} /></Page>;
  const a = account.data.account;
  return (
    <Page title={a.business_name} actions={<Link className="underline" to="/sub-accounts">All sub-accounts</Link>}>
      <p className="text-sm">Balance <strong>{a.credits}</strong> credits · <Status value={a.account_status} /> · {a.managed_by_parent ? 'managed by you' : 'manages itself'}</p>
      <Credits id={id} canBilling={session.user.can_billing} />
      {report.data && <p className="text-sm">Last 30 days: {report.data.summary.credits_consumed} credits used, {report.data.summary.inbound} replies, {report.data.summary.optouts} opt-outs.</p>}
      <SubChart id={id} />
      <SubNumbers id={id} canBilling={session.user.can_billing} managed={a.managed_by_parent} />
      <Card title="Access">
        <Checkbox label="Your team may sign in to this sub-account's dashboard" checked={a.team_access_from_parent} disabled={!a.managed_by_parent || access.isPending}
          onChange={(e) => access.mutate(e.target.checked)} />
        <ErrorText error={access.error} />
      </Card>
      <Card title="API keys">
        <Button disabled={!a.managed_by_parent || newKey.isPending} onClick={() => newKey.mutate()}>Create key</Button>
        <ErrorText error={newKey.error ?? revoke.error} />
        {newKey.data && <div className="my-3"><Secret label="New key" value={newKey.data.key} /></div>}
        <div className="mt-3">{keys.data && <KeyTable keys={keys.data.keys} onRevoke={(k) => revoke.mutate(k.id)} />}</div>
      </Card>
      <Card title="Users">
        {a.managed_by_parent && session.user.permissions.includes('manage') && (
          <InviteForm account={id} mine={session.user.permissions} onDone={() => void qc.invalidateQueries({ queryKey: ['sub', id, 'users'] })} />
        )}
        <div className="mt-3">{users.data && <UserTable users={users.data.users}
          {...(session.user.permissions.includes('manage') && a.managed_by_parent ? { onRemove: (u) => removeUser.mutate(u) } : {})} />}</div>
      </Card>
    </Page>
  );
}

export default function SubAccountsPage({ session }: { session: SessionInfo }) {
  return (
    <Routes>
      <Route index element={<SubList />} />
      <Route path=":id" element={<SubDetail session={session} />} />
    </Routes>
  );
}
