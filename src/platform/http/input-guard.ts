/**
 * What no field of any request may carry, whatever its schema says: PostgreSQL text cannot hold NUL, a lone UTF-16
 * surrogate has no UTF-8 form, a key `__proto__` or `constructor` is an attack on whoever copies the object, and a
 * body nested deeper than any request of ours is an attack on every recursive walker (the idempotency
 * canonicaliser overflowed the stack at 150,000 levels). Checked once for the body, query and path of every route,
 * before schema validation, with an iterative walk (a recursive one would overflow on the very input it refuses).
 */

/** No request of the interface nests deeper than a few levels (a batch recipient's merge data is at 4). */
export const MAX_BODY_DEPTH = 32;

const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

export interface InputProblem {
  /** dotted path of the offending field, or the context itself ('body') when it is the whole value */
  field: string;
  message: string;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function badText(s: string): string | null {
  if (s.includes('\u0000')) return 'must not contain a NUL character';
  if (LONE_SURROGATE.test(s)) return 'must be valid Unicode (a lone surrogate was found)';
  return null;
}

/** The first problem in `value` (a parsed body, query or params object), or null. */
export function findInputProblem(value: unknown, maxDepth = MAX_BODY_DEPTH): InputProblem | null {
  const stack: Array<{ value: unknown; path: string; depth: number }> = [{ value, path: '', depth: 0 }];
  while (stack.length > 0) {
    const { value: v, path, depth } = stack.pop()!;
    if (typeof v === 'string') {
      const problem = badText(v);
      if (problem) return { field: path, message: problem };
      continue;
    }
    if (typeof v === 'number') {
      // JSON.parse turns 1e309 into Infinity; no field of ours holds a number beyond 2^53.
      if (!Number.isFinite(v) || Math.abs(v) > Number.MAX_SAFE_INTEGER) return { field: path, message: 'is out of range' };
      continue;
    }
    if (v === null || typeof v !== 'object') continue;
    if (depth >= maxDepth) return { field: path, message: `nests deeper than ${maxDepth} levels` };
    const entries = Array.isArray(v) ? v.map((item, i) => [String(i), item] as const) : Object.entries(v);
    for (const [key, item] of entries) {
      const at = path ? `${path}.${key}` : key;
      if (!Array.isArray(v)) {
        if (FORBIDDEN_KEYS.has(key)) return { field: at, message: 'is not an allowed field name' };
        const problem = badText(key);
        if (problem) return { field: at, message: `(the field name) ${problem}` };
      }
      stack.push({ value: item, path: at, depth: depth + 1 });
    }
  }
  return null;
}
