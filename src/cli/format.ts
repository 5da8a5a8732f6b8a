// What the CLI prints for people: tables for lists, `key: value` blocks for one thing. Scripts ask for `--json`
// and get the API's answer as it came.

export type Cell = string | number;

/** Rows as left-aligned columns, numbers right-aligned, two spaces apart. */
export function table(header: string[], rows: Cell[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const line = (cells: Cell[]) => cells.map((c, i) => (typeof c === 'number' ? String(c).padStart(widths[i]!) : c.padEnd(widths[i]!))).join('  ').trimEnd();
  return [line(header), ...rows.map(line)].join('\n');
}

/** A value as one cell: empty for null, lists comma-separated, times to the second. */
export function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return value.map(cell).join(', ');
  if (typeof value === 'object') return JSON.stringify(value);
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  const text = String(value);
  return /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/.test(text) ? `${text.slice(0, 19).replace('T', ' ')}Z` : text;
}

/** One object as aligned `key: value` lines; nested objects' fields as `outer.inner`. */
export function keyValues(object: Record<string, unknown>): string {
  const pairs: Array<[string, string]> = [];
  const walk = (value: Record<string, unknown>, prefix: string) => {
    for (const [key, v] of Object.entries(value)) {
      if (v !== null && typeof v === 'object' && !Array.isArray(v)) walk(v as Record<string, unknown>, `${prefix}${key}.`);
      else pairs.push([`${prefix}${key}`, cell(v)]);
    }
  };
  walk(object, '');
  const width = Math.max(0, ...pairs.map(([k]) => k.length));
  return pairs.map(([k, v]) => `${`${k}:`.padEnd(width + 1)} ${v}`.trimEnd()).join('\n');
}

/** `n` and a plural noun, singular when n is 1 ("1 operator", "2 operators"). */
export function counted(n: number, plural: string): string {
  return `${n} ${n === 1 ? plural.replace(/s$/, '') : plural}`;
}

/** A page's last line: which rows of how many, and the option that shows the next page while one remains. */
export function pageLine(page: { shown: number; total: number; offset: number; limit: number }, noun: string): string {
  if (page.total === 0) return `No ${noun}.`;
  if (page.shown === 0) return `None here: ${counted(page.total, noun)} in all (--offset below ${page.total}).`;
  const last = page.offset + page.shown;
  const range = `${page.offset + 1}–${last} of ${counted(page.total, noun)}`;
  return last < page.total ? `${range}. Next page: --offset ${last} --limit ${page.limit}` : `${range}.`;
}
