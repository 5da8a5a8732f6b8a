/**
 * A batch recipient in any accepted form, read as one: a number, `{phone, merge_data, metadata}` (the interface
 * document's), or `{to, …fields}` (how some client libraries' examples write it), where every field beside `to`
 * is merge data.
 */
export type BatchRecipient =
  | string
  | { phone: string; merge_data?: Record<string, string>; metadata?: Record<string, string> }
  | { to: string; [field: string]: string };

export interface Recipient {
  phone: string;
  merge_data?: Record<string, string>;
  metadata?: Record<string, string>;
}

export function readRecipient(r: BatchRecipient): Recipient {
  if (typeof r === 'string') return { phone: r };
  if ('phone' in r && typeof r.phone === 'string') return r as Recipient;
  const { to, ...fields } = r as { to: string; [field: string]: string };
  return { phone: to, merge_data: fields };
}
