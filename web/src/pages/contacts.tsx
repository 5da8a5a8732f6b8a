import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { createColumnHelper } from '@tanstack/react-table';
import { DELETE, GET, POST, type Res } from '../lib/api.ts';
import { Button, Card, DataTable, ErrorText, Input, Loading, Notice, Page, Pager, Select } from '../ui.tsx';
import { ContactImport } from './contact-import.tsx';

type Contact = Res<'/contacts'>['contacts'][number];
type List = Res<'/lists'>['lists'][number];

const PAGE = 50;
const nameOf = (c: Contact) => [c.first_name, c.last_name].filter(Boolean).join(' ');

export default function ContactsPage({ maySend }: { maySend: boolean }) {
  const [search, setSearch] = useState('');
  const [listId, setListId] = useState('');
  // The API pages by cursor: the cursors of the pages seen so far, so Previous goes back without a second read.
  const [cursors, setCursors] = useState<string[]>([]);
  const lists = useQuery({ queryKey: ['lists'], queryFn: () => GET('/lists') });
  const q = search.trim();
  const page = useQuery({
    queryKey: ['contacts', q, listId, cursors.at(-1) ?? ''],
    queryFn: () => GET('/contacts', { params: { query: { limit: PAGE, ...(q ? { q } : {}), ...(listId ? { list_id: listId } : {}), ...(cursors.length ? { cursor: cursors.at(-1)! } : {}) } } }),
  });
  const listNames = new Map((lists.data?.lists ?? []).map((l) => [l.id, l.name]));
  const col = createColumnHelper<Contact>();
  const columns = [
    col.display({ id: 'name', header: 'Name', cell: (c) => nameOf(c.row.original) || <span className="text-slate-700">no name</span> }),
    col.accessor('phone', { header: 'Number', cell: (c) => <>{c.getValue()}{c.row.original.opted_out && <span className="block text-xs font-semibold text-red-800">opted out: never sent to</span>}</> }),
    col.accessor('email', { header: 'Email', cell: (c) => c.getValue() ?? '' }),
    col.accessor('lists', { header: 'Lists', cell: (c) => c.getValue().map((id) => listNames.get(id) ?? '').filter(Boolean).join(', ') }),
    col.accessor('fields', { header: 'Merge fields', cell: (c) => Object.entries(c.getValue()).map(([k, v]) => `${k}: ${v}`).join(' · ') }),
  ];
  const filter = (set: () => void) => { set(); setCursors([]); };
  return (
    <Page title="Contacts">
      <p className="text-sm text-slate-700">
        Contacts and their lists: send to a list from the API (list_id on /send-batch), each message merged with the
        contact's fields ({'{{first_name}}'}, or any field you imported). Opted-out numbers stay listed and are skipped.
      </p>
      {maySend && <ContactImport lists={lists.data?.lists ?? []} />}
      <ListsCard lists={lists.data?.lists ?? []} maySend={maySend} error={lists.error} onShow={(id) => filter(() => setListId(id))} />
      <Card title="Your contacts">
        <div className="mb-3 grid gap-3 sm:grid-cols-2">
          <Input label="Search contacts" type="search" value={search} onChange={(e) => filter(() => setSearch(e.target.value))} hint="Part of a name or of the number" />
          <Select label="List" value={listId} onChange={(e) => filter(() => setListId(e.target.value))}>
            <option value="">All contacts</option>
            {(lists.data?.lists ?? []).map((l) => <option key={l.id} value={l.id}>{l.name}</option>)}
          </Select>
        </div>
        <ErrorText error={page.error} />
        {page.isPending ? <Loading /> : <DataTable data={page.data?.contacts ?? []} columns={columns} caption="Contacts"
          empty={q || listId ? 'No contact matches.' : 'No contacts yet: import a CSV file above.'} />}
        <div className="mt-2"><Pager page={cursors.length} hasNext={!!page.data?.next_cursor}
          onPage={(n) => setCursors(n > cursors.length ? [...cursors, page.data!.next_cursor!] : cursors.slice(0, n))} /></div>
      </Card>
    </Page>
  );
}

function ListsCard({ lists, maySend, error, onShow }: { lists: List[]; maySend: boolean; error: unknown; onShow(id: string): void }) {
  const qc = useQueryClient();
  const [name, setName] = useState('');
  const create = useMutation({
    mutationFn: () => POST('/lists', { body: { name } }),
    onSuccess: () => { setName(''); void qc.invalidateQueries({ queryKey: ['lists'] }); },
  });
  const remove = useMutation({
    mutationFn: (l: List) => DELETE('/lists/{id}', { params: { path: { id: l.id } } }).then(() => l),
    onSuccess: () => { void qc.invalidateQueries({ queryKey: ['lists'] }); void qc.invalidateQueries({ queryKey: ['contacts'] }); },
  });
  const submit = (e: FormEvent) => { e.preventDefault(); create.mutate(); };
  return (
    <Card title="Lists">
      <ErrorText error={error ?? create.error ?? remove.error} />
      {lists.length === 0 ? <p className="text-sm text-slate-700">No lists yet.</p> : (
        <ul className="divide-y divide-slate-200" aria-label="Your lists">
          {lists.map((l) => (
            <li key={l.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
              <span>{l.name} · {l.contact_count} {l.contact_count === 1 ? 'contact' : 'contacts'}</span>
              <span className="flex gap-2">
                <Button kind="secondary" onClick={() => onShow(l.id)} aria-label={`Show the contacts in ${l.name}`}>Show</Button>
                {maySend && <Button kind="danger" disabled={remove.isPending} aria-label={`Delete the list ${l.name}`}
                  onClick={() => { if (confirm(`Delete the list ${l.name}? Its contacts stay.`)) remove.mutate(l); }}>Delete</Button>}
              </span>
            </li>
          ))}
        </ul>
      )}
      {remove.data && <Notice>Deleted the list {remove.data.name}; its contacts stay.</Notice>}
      {maySend && (
        <form onSubmit={submit} className="mt-3 flex flex-col gap-3 sm:flex-row sm:items-end" noValidate>
          <div className="flex-1"><Input label="New list" value={name} maxLength={200} onChange={(e) => setName(e.target.value)} /></div>
          <Button type="submit" disabled={create.isPending || !name.trim()}>Create list</Button>
        </form>
      )}
    </Card>
  );
}
