const formats = new Map<string, Intl.DateTimeFormat>();

/**
 * An instant for people, in `zone` (the browser's when undefined), with the zone's abbreviation so that nobody
 * has to guess which clock it is: "1 May 2030, 9:00 am AEST".
 */
export function dateTime(iso: string | null | undefined, zone?: string): string {
  if (!iso) return '—';
  let f = formats.get(zone ?? '');
  if (!f) {
    f = new Intl.DateTimeFormat('en-AU', {
      ...(zone ? { timeZone: zone } : {}), day: 'numeric', month: 'short', year: 'numeric', hour: 'numeric', minute: '2-digit', timeZoneName: 'short',
    });
    formats.set(zone ?? '', f);
  }
  return f.format(new Date(iso));
}

export const percent = (n: number) => `${(n * 100).toFixed(1)}%`;

/**
 * CSV text (RFC 4180: CRLF line ends, a field with a comma, quote or line break quoted, quotes doubled). A value a
 * spreadsheet would run as a formula (it begins with `=`, `@`, a tab or a carriage return, or with `+` or `-` and
 * then something other than a digit) is prefixed with `'`; phone numbers (`+61…`) and negative numbers stay.
 */
export function csvText(header: string[], rows: Array<Array<string | number | null>>): string {
  const cell = (v: string | number | null) => {
    const raw = v === null ? '' : String(v);
    const s = /^([=@\t\r]|[+-](?!\d))/.test(raw) ? `'${raw}` : raw;
    return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  return [header, ...rows].map((r) => r.map(cell).join(',')).join('\r\n') + '\r\n';
}

/** A CSV file from rows (csvText), downloaded by the browser. */
export function downloadCsv(name: string, header: string[], rows: Array<Array<string | number | null>>) {
  const url = URL.createObjectURL(new Blob([csvText(header, rows)], { type: 'text/csv' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  URL.revokeObjectURL(url);
}

/** Parses CSV text (quoted fields, commas, CRLF) into rows of strings. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') { cell += '"'; i++; } else if (c === '"') quoted = false; else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') { row.push(cell); cell = ''; }
    else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(cell); cell = '';
      if (row.some((v) => v.trim() !== '')) rows.push(row);
      row = [];
    } else cell += c;
  }
  row.push(cell);
  if (row.some((v) => v.trim() !== '')) rows.push(row);
  return rows;
}
