import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { createColumnHelper } from '@tanstack/react-table';
import { del, get, post } from '../lib/api.ts';
import { When } from '../zone.tsx';
import { Button, Card, Checkbox, DataTable, ErrorText, Input, Loading, Page, Secret } from '../ui.tsx';

type Scope = 'read' | 'send' | 'manage';
interface Key { id: string; name: string; prefix: string; scopes?: Scope[]; revoked_at: string | null; created_at: string; last_used_at: string | null }

const SCOPES: Array<{ id: Scope; label: string }> = [
  { id: 'read', label: 'Read: messages, reports, balance' },
  { id: 'send', label: 'Send: spend credits on messages' },
  { id: 'manage', label: 'Manage: keys, webhooks, numbers, sub-accounts' },
];

export function KeyTable({ keys, onRevoke }: { keys: Key[]; onRevoke: (k: Key) => void }) {
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
        : <Button kind="danger" onClick={() => onRevoke(c.row.original)} aria-label={`Revoke ${c.row.original.name}`}>Revoke</Button>,
    }),
  ];
  return <DataTable data={keys} columns={columns} caption="API keys" empty="No API keys yet." pageSize={20} />;
}

/** Which of read, send and manage a new key holds (all three by default, as the API does). */
export function ScopeFields({ value, onChange, error }: { value: Scope[]; onChange: (s: Scope[]) => void; error?: string | undefined }) {
  return (
    <fieldset className="space-y-1">
      <legend className="text-sm font-medium">What the key may do</legend>
      {SCOPES.map((s) => (
        <Checkbox key={s.id} label={s.label} checked={value.includes(s.id)}
          onChange={(e) => onChange(SCOPES.map((x) => x.id).filter((id) => (id === s.id ? e.target.checked : value.includes(id))))} />
      ))}
      {error && <p role="alert" className="text-sm text-red-700">{error}</p>}
    </fieldset>
  );
}

export default function KeysPage() {
  const qc = useQueryClient();
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<Scope[]>(['read', 'send', 'manage']);
  const keys = useQuery({ queryKey: ['keys'], queryFn: () => get<{ keys: Key[] }>('/keys') });
  const create = useMutation({
    mutationFn: () => post<{ key: string; name: string; scopes: Scope[] }>('/keys', { name, scopes }),
    onSuccess: () => { setName(''); void qc.invalidateQueries({ queryKey: ['keys'] }); },
  });
  const revoke = useMutation({
    mutationFn: (k: Key) => del(`/keys/${k.id}`),
    onSuccess: () => { void qc.invalidateQueries({ queryKey: ['keys'] }); },
  });
  const submit = (e: FormEvent) => { e.preventDefault(); create.mutate(); };
  return (
    <Page title="API keys">
      <Card title="Create a key">
        <form onSubmit={submit} className="space-y-3">
          <Input label="Key name" value={name} maxLength={100} onChange={(e) => setName(e.target.value)} hint="Where it will be used, e.g. Website" />
          <ScopeFields value={scopes} onChange={setScopes} error={scopes.length === 0 ? 'Choose at least one' : undefined} />
          <Button type="submit" disabled={create.isPending || scopes.length === 0}>Create key</Button>
        </form>
        <ErrorText error={create.error} />
        {create.data && <div className="mt-3"><Secret label={`New key "${create.data.name}" (${create.data.scopes.join(', ')})`} value={create.data.key} /></div>}
      </Card>
      <Card title="Rotating a key without downtime">
        <ol className="list-decimal space-y-1 pl-5 text-sm">
          <li>Create a new key here.</li>
          <li>Deploy it to your application (both keys work meanwhile).</li>
          <li>Revoke the old key: it stops working on its very next request.</li>
        </ol>
      </Card>
      <ErrorText error={keys.error ?? revoke.error} />
      {keys.isPending ? <Loading /> : <KeyTable keys={keys.data?.keys ?? []} onRevoke={(k) => { if (confirm(`Revoke ${k.name}? Requests with it will fail at once.`)) revoke.mutate(k); }} />}
    </Page>
  );
}
