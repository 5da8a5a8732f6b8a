import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { createColumnHelper } from '@tanstack/react-table';
import { DELETE, GET, POST, type Body, type Res } from '../lib/api.ts';
import { When } from '../zone.tsx';
import { Button, Card, Checkbox, DataTable, ErrorText, Input, Loading, Page, Secret } from '../ui.tsx';
import type { SessionInfo } from '../session.ts';
import SmppCredentials from './smpp-credentials.tsx';

type Scope = NonNullable<Body<'/keys'>['scopes']>[number];
type Key = Res<'/keys'>['keys'][number];

const SCOPES: Array<{ id: Scope; label: string }> = [
  { id: 'read', label: 'Read: messages, reports, balance' },
  { id: 'send', label: 'Send: spend credits on messages' },
  { id: 'billing', label: 'Billing: move credits, buy and move numbers' },
  { id: 'manage', label: 'Manage: keys, team, webhooks, settings, sub-accounts' },
];
const ALL_SCOPES = SCOPES.map((s) => s.id);

export function KeyTable({ keys, onRevoke }: { keys: Key[]; onRevoke?: (k: Key) => void }) {
  const col = createColumnHelper<Key>();
  const columns = [
    col.accessor('name', { header: 'Name' }),
    col.accessor('prefix', { header: 'Starts with', cell: (c) => <code>{c.getValue()}…</code> }),
    col.accessor('scopes', { header: 'May', cell: (c) => (c.getValue() ?? SCOPES.map((s) => s.id)).join(', ') }),
    col.accessor('created_at', { header: 'Created', cell: (c) => <When iso={c.getValue()} /> }),
    col.accessor('last_used_at', { header: 'Last used', cell: (c) => <When iso={c.getValue()} /> }),
    col.display({
      id: 'state', header: 'State',
      cell: (c) => c.row.original.revoked_at ? <>revoked <When iso={c.row.original.revoked_at} /></>
        : onRevoke ? <Button kind="danger" onClick={() => onRevoke(c.row.original)} aria-label={`Revoke ${c.row.original.name}`}>Revoke</Button> : 'active',
    }),
  ];
  return <DataTable data={keys} columns={columns} caption="API keys" empty="No API keys yet." pageSize={20} />;
}

/** Which scopes a new key holds (all four by default, as the API does); ones the user lacks cannot be given. */
export function ScopeFields({ value, onChange, error, mine = ALL_SCOPES }: { value: Scope[]; onChange: (s: Scope[]) => void; error?: string | undefined; mine?: string[] }) {
  return (
    <fieldset className="space-y-1">
      <legend className="text-sm font-medium">What the key may do</legend>
      {SCOPES.map((s) => (
        <Checkbox key={s.id} label={mine.includes(s.id) ? s.label : `${s.label} (you cannot give this: you do not have it)`}
          checked={value.includes(s.id)} disabled={!mine.includes(s.id)}
          onChange={(e) => onChange(SCOPES.map((x) => x.id).filter((id) => (id === s.id ? e.target.checked : value.includes(id))))} />
      ))}
      {error && <p role="alert" className="text-sm text-red-700">{error}</p>}
    </fieldset>
  );
}

export default function KeysPage({ session }: { session: SessionInfo }) {
  const qc = useQueryClient();
  const mine: string[] = session.user.permissions;
  const mayManage = mine.includes('manage');
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<Scope[]>(ALL_SCOPES.filter((s) => mine.includes(s)));
  const keys = useQuery({ queryKey: ['keys'], queryFn: () => GET('/keys') });
  const create = useMutation({
    mutationFn: () => POST('/keys', { body: { name, scopes } }),
    onSuccess: () => { setName(''); void qc.invalidateQueries({ queryKey: ['keys'] }); },
  });
  const revoke = useMutation({
    mutationFn: (k: Key) => DELETE('/keys/{keyId}', { params: { path: { keyId: k.id } } }),
    onSuccess: () => { void qc.invalidateQueries({ queryKey: ['keys'] }); },
  });
  const submit = (e: FormEvent) => { e.preventDefault(); create.mutate(); };
  return (
    <Page title="API keys">
      <p className="text-sm">Every call, its fields and its errors, with examples to try: the <a className="underline" href="/docs/">API reference</a>. Send the key as <code>Authorization: Bearer &lt;key&gt;</code>.</p>
      <Card title="Create a key">
        {!mayManage ? <p className="text-sm text-slate-700">Only admins and the owner create and revoke API keys.</p> : <>
        <form onSubmit={submit} className="space-y-3">
          <Input label="Key name" value={name} maxLength={100} onChange={(e) => setName(e.target.value)} hint="Where it will be used, e.g. Website" />
          <ScopeFields value={scopes} mine={mine} onChange={setScopes} error={scopes.length === 0 ? 'Choose at least one' : undefined} />
          <Button type="submit" disabled={create.isPending || scopes.length === 0}>Create key</Button>
        </form>
        <ErrorText error={create.error} />
        {create.data && <div className="mt-3"><Secret label={`New key "${create.data.name}" (${create.data.scopes.join(', ')})`} value={create.data.key} /></div>}
        <p className="mt-2 text-sm text-slate-600">A key is yours: it can never do more than you can, and stops working if you are removed.</p>
        </>}
      </Card>
      <Card title="Rotating a key without downtime">
        <ol className="list-decimal space-y-1 pl-5 text-sm">
          <li>Create a new key here.</li>
          <li>Deploy it to your application (both keys work meanwhile).</li>
          <li>Revoke the old key: it stops working on its very next request.</li>
        </ol>
      </Card>
      <ErrorText error={keys.error ?? revoke.error} />
      {keys.isPending ? <Loading /> : <KeyTable keys={keys.data?.keys ?? []}
        {...(mayManage ? { onRevoke: (k: Key) => { if (confirm(`Revoke ${k.name}? Requests with it will fail at once.`)) revoke.mutate(k); } } : {})} />}
      <SmppCredentials mayManage={mayManage} maySend={mine.includes('send')} />
    </Page>
  );
}
