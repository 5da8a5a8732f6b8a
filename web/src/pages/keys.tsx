import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { createColumnHelper } from '@tanstack/react-table';
import { del, get, post } from '../lib/api.ts';
import { dateTime } from '../lib/format.ts';
import { Button, Card, DataTable, ErrorText, Input, Loading, Page, Secret } from '../ui.tsx';

interface Key { id: string; name: string; prefix: string; revoked_at: string | null; created_at: string; last_used_at: string | null }

export function KeyTable({ keys, onRevoke }: { keys: Key[]; onRevoke: (k: Key) => void }) {
  const col = createColumnHelper<Key>();
  const columns = [
    col.accessor('name', { header: 'Name' }),
    col.accessor('prefix', { header: 'Starts with', cell: (c) => <code>{c.getValue()}…</code> }),
    col.accessor('created_at', { header: 'Created', cell: (c) => dateTime(c.getValue()) }),
    col.accessor('last_used_at', { header: 'Last used', cell: (c) => dateTime(c.getValue()) }),
    col.display({
      id: 'state', header: 'State',
      cell: (c) => c.row.original.revoked_at ? `revoked ${dateTime(c.row.original.revoked_at)}`
        : <Button kind="danger" onClick={() => onRevoke(c.row.original)} aria-label={`Revoke ${c.row.original.name}`}>Revoke</Button>,
    }),
  ];
  return <DataTable data={keys} columns={columns} caption="API keys" empty="No API keys yet." />;
}

export default function KeysPage() {
  const qc = useQueryClient();
  const [name, setName] = useState('');
  const keys = useQuery({ queryKey: ['keys'], queryFn: () => get<{ keys: Key[] }>('/keys') });
  const create = useMutation({
    mutationFn: () => post<{ key: string; name: string }>('/keys', { name }),
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
        <form onSubmit={submit} className="flex flex-col gap-3 sm:flex-row sm:items-end">
          <div className="flex-1"><Input label="Key name" value={name} maxLength={100} onChange={(e) => setName(e.target.value)} hint="Where it will be used, e.g. Website" /></div>
          <Button type="submit" disabled={create.isPending}>Create key</Button>
        </form>
        <ErrorText error={create.error} />
        {create.data && <div className="mt-3"><Secret label={`New key "${create.data.name}"`} value={create.data.key} /></div>}
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
