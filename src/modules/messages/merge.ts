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
 */

/** `{{`, anything without braces, `}}`. Braces are excluded so the match is linear and `{{{a}}}` keeps its outer braces. */
const PLACEHOLDER = /\{\{([^{}]*)\}\}/g;

export type MergeData = Readonly<Record<string, string>>;

function lookup(source: MergeData | undefined, key: string): string | undefined {
  if (source === undefined || !Object.hasOwn(source, key)) return undefined;
  const value = source[key];
  return typeof value === 'string' ? value : undefined;
}

export function renderMerge(template: string, data: MergeData | undefined, extra?: MergeData): string {
  return template.replace(PLACEHOLDER, (whole, inner: string) => {
    const key = inner.trim();
    if (key === '') return whole;
    return lookup(extra, key) ?? lookup(data, key) ?? '';
  });
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
