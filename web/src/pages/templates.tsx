import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, DELETE, GET, PATCH, POST, type Res } from '../lib/api.ts';
import { When } from '../zone.tsx';
import { Button, Card, Empty, ErrorText, Input, Loading, Notice, Page, TextArea } from '../ui.tsx';

type Template = Res<'/templates'>['templates'][number];

export default function TemplatesPage({ maySend }: { maySend: boolean }) {
  const list = useQuery({ queryKey: ['templates'], queryFn: () => GET('/templates') });
  const [editing, setEditing] = useState<Template | null>(null);
  return (
    <Page title="Templates">
      <p className="text-sm text-slate-700">
        Saved message texts: pick one on the Send page, or send it from the API with template_id. Placeholders such as
        {' {{first_name}} '}are filled from each recipient's merge fields or contact.
      </p>
      {maySend && <TemplateForm key={editing?.id ?? 'new'} editing={editing} onDone={() => setEditing(null)} />}
      <Card title="Your templates">
        <ErrorText error={list.error} />
        {list.isPending ? <Loading /> : (list.data?.templates.length ?? 0) === 0 ? <Empty>No templates yet.</Empty> : (
          <ul className="divide-y divide-slate-200" aria-label="Your templates">
            {list.data!.templates.map((t) => <TemplateItem key={t.id} template={t} maySend={maySend} onEdit={() => setEditing(t)} />)}
          </ul>
        )}
      </Card>
    </Page>
  );
}

function TemplateItem({ template, maySend, onEdit }: { template: Template; maySend: boolean; onEdit(): void }) {
  const qc = useQueryClient();
  const remove = useMutation({
    mutationFn: () => DELETE('/templates/{id}', { params: { path: { id: template.id } } }),
    onSuccess: () => { void qc.invalidateQueries({ queryKey: ['templates'] }); },
  });
  return (
    <li className="space-y-2 py-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 className="font-semibold">{template.name}</h3>
        {maySend && (
          <span className="flex gap-2">
            <Button kind="secondary" onClick={onEdit} aria-label={`Change the template ${template.name}`}>Change</Button>
            <Button kind="danger" disabled={remove.isPending} aria-label={`Delete the template ${template.name}`}
              onClick={() => { if (confirm(`Delete the template ${template.name}? Messages sent with it keep their text.`)) remove.mutate(); }}>Delete</Button>
          </span>
        )}
      </div>
      <p className="whitespace-pre-wrap rounded bg-slate-100 p-3 text-sm">{template.body}</p>
      <p className="text-xs text-slate-700">Changed <When iso={template.updated_at} /></p>
      <ErrorText error={remove.error} />
    </li>
  );
}

function TemplateForm({ editing, onDone }: { editing: Template | null; onDone(): void }) {
  const qc = useQueryClient();
  const [name, setName] = useState(editing?.name ?? '');
  const [body, setBody] = useState(editing?.body ?? '');
  const save = useMutation({
    mutationFn: () => (editing
      ? PATCH('/templates/{id}', { params: { path: { id: editing.id } }, body: { name, body } })
      : POST('/templates', { body: { name, body } })),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: ['templates'] });
      if (editing) onDone(); else { setName(''); setBody(''); }
    },
  });
  const err = save.error instanceof ApiError ? save.error : null;
  const submit = (e: FormEvent) => { e.preventDefault(); save.mutate(); };
  return (
    <Card title={editing ? `Change ${editing.name}` : 'New template'}>
      <form onSubmit={submit} className="space-y-3" noValidate>
        <Input label="Name" value={name} maxLength={200} onChange={(e) => setName(e.target.value)} error={err?.forField('name')} />
        <TextArea label="Message" rows={4} value={body} onChange={(e) => setBody(e.target.value)} error={err?.forField('body')}
          hint={`${[...body].length} characters; {{first_name}}, {{last_name}} and your contacts' own fields are merged when sent`} />
        <div className="flex gap-2">
          <Button type="submit" disabled={save.isPending || !name.trim() || !body.trim()}>{editing ? 'Save' : 'Save template'}</Button>
          {editing && <Button kind="secondary" onClick={onDone}>Cancel</Button>}
        </div>
        {err && !err.forField('name') && !err.forField('body') && <ErrorText error={err} />}
        {save.data && !editing && <Notice>Saved {save.data.name}.</Notice>}
      </form>
    </Card>
  );
}
