import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { createColumnHelper } from '@tanstack/react-table';
import { DELETE, GET, POST, type Res } from '../lib/api.ts';
import { When } from '../zone.tsx';
import { Button, Card, DataTable, ErrorText, Input, Loading, Secret } from '../ui.tsx';

// SMPP credentials beside the API keys: what a customer's own SMPP client binds to Tasman's SMPP server with
// (docs/smpp-server.md). The password is shown once, as a key is.
type Credential = Res<'/smpp-credentials'>['credentials'][number];

export default function SmppCredentials({ mayManage, maySend }: { mayManage: boolean; maySend: boolean }) {
  const qc = useQueryClient();
  const [name, setName] = useState('');
  const [allowed, setAllowed] = useState('');
  const [tps, setTps] = useState('10');
  const [binds, setBinds] = useState('2');
  const list = useQuery({ queryKey: ['smpp-credentials'], queryFn: () => GET('/smpp-credentials') });
  const create = useMutation({
    mutationFn: () => POST('/smpp-credentials', { body: {
      name, tps: Number(tps), max_binds: Number(binds), allowed_ips: allowed.split(/[\s,]+/).filter((a) => a !== ''),
    } }),
    onSuccess: () => { setName(''); void qc.invalidateQueries({ queryKey: ['smpp-credentials'] }); },
  });
  const revoke = useMutation({
    mutationFn: (c: Credential) => DELETE('/smpp-credentials/{credentialId}', { params: { path: { credentialId: c.id } } }),
    onSuccess: () => { void qc.invalidateQueries({ queryKey: ['smpp-credentials'] }); },
  });
  const submit = (e: FormEvent) => { e.preventDefault(); create.mutate(); };
  const col = createColumnHelper<Credential>();
  const columns = [
    col.accessor('name', { header: 'Name' }),
    col.accessor('system_id', { header: 'system_id', cell: (c) => <code>{c.getValue()}</code> }),
    col.accessor('allowed_ips', { header: 'From', cell: (c) => (c.getValue().length ? c.getValue().join(', ') : 'any address') }),
    col.display({ id: 'limits', header: 'Limits', cell: (c) => `${c.row.original.max_binds} binds, ${c.row.original.tps}/s` }),
    col.accessor('last_bound_at', { header: 'Last bound', cell: (c) => <When iso={c.getValue()} /> }),
    col.display({
      id: 'state', header: 'State',
      cell: (c) => c.row.original.revoked_at ? <>revoked <When iso={c.row.original.revoked_at} /></>
        : mayManage ? <Button kind="danger" aria-label={`Revoke ${c.row.original.name}`}
          onClick={() => { if (confirm(`Revoke ${c.row.original.name}? Its binds close at once.`)) revoke.mutate(c.row.original); }}>Revoke</Button> : 'active',
    }),
  ];
  return (
    <Card title="SMPP credentials">
      <p className="mb-3 text-sm text-slate-700">For software that speaks SMPP 3.4: it binds to Tasman with a system_id and password, and sends as this account.</p>
      {mayManage && maySend ? <>
        <form onSubmit={submit} className="space-y-3">
          <Input label="Name" value={name} required maxLength={100} onChange={(e) => setName(e.target.value)} hint="Which platform will bind with it" />
          <Input label="Allowed addresses" value={allowed} onChange={(e) => setAllowed(e.target.value)} hint="IP addresses or CIDR blocks, comma-separated; empty: any address" />
          <Input label="Submits a second" type="number" min={1} max={500} value={tps} onChange={(e) => setTps(e.target.value)} />
          <Input label="Binds at once" type="number" min={1} max={20} value={binds} onChange={(e) => setBinds(e.target.value)} />
          <Button type="submit" disabled={create.isPending || name.trim() === ''}>Create SMPP credential</Button>
        </form>
        <ErrorText error={create.error} />
        {create.data && <div className="mt-3"><Secret label={`Password for system_id ${create.data.system_id}`} value={create.data.password} /></div>}
      </> : <p className="text-sm text-slate-700">Creating one needs the manage and send permissions.</p>}
      <ErrorText error={list.error ?? revoke.error} />
      <div className="mt-3">
        {list.isPending ? <Loading /> : <DataTable data={list.data?.credentials ?? []} columns={columns} caption="SMPP credentials" empty="No SMPP credentials yet." pageSize={20} />}
      </div>
    </Card>
  );
}
