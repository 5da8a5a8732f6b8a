/** Parses CSV text (RFC 4180 quoting, commas, CRLF or LF) into rows of strings; blank lines are skipped. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  const endRow = () => {
    row.push(cell);
    cell = '';
    if (row.some((v) => v.trim() !== '')) rows.push(row);
    row = [];
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') { cell += '"'; i++; } else if (c === '"') quoted = false; else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') { row.push(cell); cell = ''; } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      endRow();
    } else cell += c;
  }
  endRow();
  return rows;
}

/** One RFC 4180 field: a value with a comma, quote or line break is quoted, its quotes doubled; null is empty. */
export function csvField(value: string | null): string {
  if (value === null) return '';
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/**
 * Text that begins with `=`, `+`, `-`, `@`, a tab or a carriage return is prefixed with `'`, so a spreadsheet
 * opening the file never runs it as a formula.
 */
export const defuse = (text: string | null): string | null => (text !== null && /^[=+\-@\t\r]/.test(text) ? `'${text}` : text);

/** One CSV line (CRLF-terminated) of cells written as they are. */
export const csvLine = (cells: Array<string | null>): string => `${cells.map(csvField).join(',')}\r\n`;
