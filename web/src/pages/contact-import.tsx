import { useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { POST, type Res } from '../lib/api.ts';
import { parseCsv } from '../lib/format.ts';
import { Button, Card, ErrorText, Input, Notice, Select } from '../ui.tsx';

type List = Res<'/lists'>['lists'][number];

// What each column of the file becomes: a contact's own field, a merge field under the column's name, or nothing.
const SKIP = '';
const CUSTOM = '\u0000custom';
const OWN = [['phone', 'Phone number'], ['first_name', 'First name'], ['last_name', 'Last name'], ['email', 'Email']] as const;

/** The API's own reading of an unmapped header, so the mapping shown first is what an import without one does. */
const PHONE_HEADERS = ['phone', 'mobile', 'number', 'to', 'phone number', 'mobile number'];
const NAMED: Record<string, string> = {
  first_name: 'first_name', 'first name': 'first_name', firstname: 'first_name',
  last_name: 'last_name', 'last name': 'last_name', lastname: 'last_name', surname: 'last_name', email: 'email',
};
function guess(header: string): string {
  const name = header.trim().toLowerCase();
  return PHONE_HEADERS.includes(name) ? 'phone' : NAMED[name] ?? CUSTOM;
}

/** Import a CSV of contacts: the header row's columns mapped to fields, optionally into a list. */
export function ContactImport({ lists }: { lists: List[] }) {
  const qc = useQueryClient();
  const [file, setFile] = useState<{ name: string; text: string; headers: string[]; rows: number } | null>(null);
  const [mapping, setMapping] = useState<Record<string, string>>({});
  const [listId, setListId] = useState('');
  const [fileError, setFileError] = useState<string>();
  const run = useMutation({
    mutationFn: () => POST('/contacts/import', { body: {
      csv: file!.text,
      columns: Object.fromEntries(file!.headers.map((h) => [h, mapping[h] === CUSTOM ? h.trim().slice(0, 40) : mapping[h] ?? SKIP])),
      ...(listId ? { list_id: listId } : {}),
    } }),
    onSuccess: () => { void qc.invalidateQueries({ queryKey: ['contacts'] }); void qc.invalidateQueries({ queryKey: ['lists'] }); },
  });

  const onFile = async (chosen: File | undefined) => {
    setFileError(undefined);
    run.reset();
    if (!chosen) { setFile(null); return; }
    const text = await chosen.text();
    const [header, ...rows] = parseCsv(text);
    if (!header || header.length === 0) { setFileError('The file is empty'); setFile(null); return; }
    setFile({ name: chosen.name, text, headers: header, rows: rows.filter((r) => r.some((c) => c.trim() !== '')).length });
    setMapping(Object.fromEntries(header.map((h) => [h, guess(h)])));
  };
  const phoneColumns = file ? file.headers.filter((h) => mapping[h] === 'phone').length : 0;
  const mappingError = file && phoneColumns !== 1 ? 'Choose exactly one column as the phone number' : undefined;
  const submit = (e: FormEvent) => { e.preventDefault(); if (!mappingError) run.mutate(); };

  return (
    <Card title="Import contacts from a CSV file">
      <form onSubmit={submit} className="space-y-4" noValidate>
        <Input label="CSV file" type="file" accept=".csv,text/csv" onChange={(e) => void onFile(e.target.files?.[0])} error={fileError}
          hint="The first row names the columns. A number already in your contacts is updated, not added twice." />
        {file && (
          <fieldset className="space-y-3">
            <legend className="text-sm font-medium">What each column is ({file.name}, {file.rows} rows)</legend>
            <div className="grid gap-3 sm:grid-cols-2">
              {file.headers.map((h, i) => (
                <Select key={`${i}:${h}`} label={`Column “${h || `column ${i + 1}`}”`} value={mapping[h] ?? SKIP} onChange={(e) => setMapping({ ...mapping, [h]: e.target.value })}>
                  {OWN.map(([value, label]) => <option key={value} value={value}>{label}</option>)}
                  <option value={CUSTOM}>{`Merge field {{${h.trim()}}}`}</option>
                  <option value={SKIP}>Leave it out</option>
                </Select>
              ))}
            </div>
            {mappingError && <p role="alert" className="text-sm text-red-700">{mappingError}</p>}
            <div className="max-w-sm">
              <Select label="Add them to a list (optional)" value={listId} onChange={(e) => setListId(e.target.value)}>
                <option value="">No list</option>
                {lists.map((l) => <option key={l.id} value={l.id}>{l.name}</option>)}
              </Select>
            </div>
          </fieldset>
        )}
        <Button type="submit" disabled={!file || !!mappingError || run.isPending}>Import</Button>
      </form>
      <ErrorText error={run.error} />
      {run.data && (
        <div className="mt-3"><Notice>
          Imported: {run.data.created} new, {run.data.updated} updated{run.data.opted_out > 0 ? `, ${run.data.opted_out} opted out (kept, never sent to)` : ''}.
          {run.data.invalid.length > 0 && ` Not imported: ${run.data.invalid.slice(0, 10).map((r) => `row ${r.row} (${r.phone || 'no number'}: ${r.reason})`).join('; ')}${run.data.invalid.length > 10 ? ` and ${run.data.invalid.length - 10} more` : ''}.`}
        </Notice></div>
      )}
    </Card>
  );
}
