/**
 * Merge fields: `{{key}}` placeholders in a message body, filled per recipient.
 *
 * - Spaces inside the braces are ignored (`{{ name }}` is `{{name}}`); the key itself is matched exactly, case
 *   included (`{{Name}}` does not take `name`), because merge_data keys come from customer data where case may
 *   be meaningful and guessing would be surprising in the other direction.
 * - A key the recipient has no value for becomes the empty string (contract). Braces with nothing but spaces
 *   inside (`{{ }}`) name no key and are left as written.
 * - `extra` holds service-provided fields (`OptOutLink`), which win over the customer's merge_data so a recipient
 *   value cannot replace the opt-out link.
 * - Substitution is a single pass over the template: a value containing `{{x}}` is inserted literally, never
 *   expanded, so recipient data cannot inject other recipients' fields or a second opt-out link.
 * - Only own properties count: `{{constructor}}` or `{{__proto__}}` must not reach Object.prototype.
 * - Single braces (`{name}`, as some client libraries' examples write them) are filled only when `fields` names
 *   that key: a merge field some recipient of the batch has. Any other single-brace text is left as written, so
 *   JSON-like text and plain braces still go out unchanged (decision 0054).
 */

/** `{{`, anything without braces, `}}`. Braces are excluded so the match is linear and `{{{a}}}` keeps its outer braces. */
const PLACEHOLDER = /\{\{([^{}]*)\}\}/g;
/** `{{x}}` first, else `{x}`: the same linear scan, with the single-brace form as a second alternative. */
const EITHER = /\{\{([^{}]*)\}\}|\{([^{}]*)\}/g;
const SINGLE = /\{([^{}]*)\}/g;

/** Filled by Tasman, never by a recipient's data, and known to every send. */
export const SERVICE_FIELDS: readonly string[] = ['OptOutLink', 'SendingNumber'];

export type MergeData = Readonly<Record<string, string>>;

function lookup(source: MergeData | undefined, key: string): string | undefined {
  if (source === undefined || !Object.hasOwn(source, key)) return undefined;
  const value = source[key];
  return typeof value === 'string' ? value : undefined;
}

export function renderMerge(template: string, data: MergeData | undefined, extra?: MergeData, fields?: ReadonlySet<string>): string {
  if (fields === undefined || fields.size === 0) {
    return template.replace(PLACEHOLDER, (whole, inner: string) => {
      const key = inner.trim();
      if (key === '') return whole;
      return lookup(extra, key) ?? lookup(data, key) ?? '';
    });
  }
  return template.replace(EITHER, (whole, double: string | undefined, single: string | undefined) => {
    const key = (double ?? single ?? '').trim();
    if (key === '' || (double === undefined && !fields.has(key))) return whole;
    return lookup(extra, key) ?? lookup(data, key) ?? '';
  });
}

/** The merge fields recipients bring: every key with a string value in any recipient's data. */
export function fieldsOf(data: Iterable<MergeData | undefined>): Set<string> {
  const fields = new Set<string>();
  for (const d of data) {
    if (d === undefined) continue;
    for (const key of Object.keys(d)) if (typeof d[key] === 'string') fields.add(key);
  }
  return fields;
}

export interface MergeCheck {
  /** `{{x}}` placeholders that neither a recipient's data nor the service fills */
  unknown: string[];
  /** the fields the template may use: the recipients' and the service's */
  known: string[];
  /** the recipients' fields the template uses (`{{x}}`, or `{x}` when x is one of them) */
  used: string[];
}

/** What a template asks of a batch's data: which of its placeholders nothing can fill, and which fields it uses. */
export function checkMerge(template: string, fields: ReadonlySet<string>): MergeCheck {
  const unknown: string[] = [];
  const used = new Set<string>();
  for (const key of placeholderKeys(template)) {
    if (SERVICE_FIELDS.includes(key)) continue;
    if (fields.has(key)) used.add(key);
    else unknown.push(key);
  }
  if (fields.size > 0) {
    for (const match of template.matchAll(SINGLE)) {
      const key = (match[1] ?? '').trim();
      if (fields.has(key)) used.add(key);
    }
  }
  return { unknown, known: [...fields, ...SERVICE_FIELDS.filter((f) => !fields.has(f))], used: [...used] };
}

/** The used fields one recipient has no value for (sent as the empty string). */
export function missingFields(used: readonly string[], data: MergeData | undefined): string[] {
  return used.filter((key) => lookup(data, key) === undefined);
}

/** Distinct placeholder keys, in order of first appearance. */
export function placeholderKeys(template: string): string[] {
  const keys = new Set<string>();
  for (const match of template.matchAll(PLACEHOLDER)) {
    const key = (match[1] ?? '').trim();
    if (key !== '') keys.add(key);
  }
  return [...keys];
}

export function templateHasPlaceholder(template: string, key: string): boolean {
  return placeholderKeys(template).includes(key);
}
