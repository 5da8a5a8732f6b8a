import { tools } from './tools.schemas.ts';
import type { ToolDefinition } from './tool-definition.schemas.ts';

// The tool list as an agent receives it (tools/list), which sits in its context for the whole conversation: each
// input schema with what validation enforces (types, limits, required fields, enums) and a short description of
// each argument, without the REST reference's examples and long notes; no output schemas (decision 0072). Calls
// are still validated against the full schema.

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const DROPPED = new Set(['examples', 'propertyNames', '$id']);

/** A description's first sentence or clause: the rest is the REST reference's detail. */
const firstClause = (text: string) => text.split(/; |\. /)[0]!.replace(/\.$/, '');

function compact(schema: Json): Json {
  if (Array.isArray(schema)) return schema.map(compact);
  if (schema === null || typeof schema !== 'object') return schema;
  const out: Record<string, Json> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (DROPPED.has(key)) continue;
    if (key === 'description' && typeof value === 'string') out[key] = firstClause(value);
    else if (key === 'properties' && value && typeof value === 'object' && !Array.isArray(value)) {
      out[key] = Object.fromEntries(Object.entries(value).map(([name, property]) => [name, compact(property)]));
    } else out[key] = compact(value);
  }
  // A union of string constants reads as an enum; a uuid needs no pattern beside its format.
  const anyOf = out.anyOf;
  if (Array.isArray(anyOf) && anyOf.every((s) => s !== null && typeof s === 'object' && !Array.isArray(s) && 'const' in s)) {
    delete out.anyOf;
    out.type = 'string';
    out.enum = anyOf.map((s) => (s as { const: Json }).const);
  }
  if (out.format === 'uuid') delete out.pattern;
  return out;
}

export interface ListedTool {
  name: string;
  title: string;
  description: string;
  inputSchema: { type: 'object'; [key: string]: unknown };
  annotations: ToolDefinition['annotations'] & { title: string };
}

const listed: ListedTool[] = tools.map((t) => ({
  name: t.name, title: t.title, description: t.description,
  inputSchema: compact(JSON.parse(JSON.stringify(t.input)) as Json) as ListedTool['inputSchema'],
  annotations: { title: t.title, ...t.annotations },
}));

/** The answer to tools/list. */
export const listedTools = (): ListedTool[] => listed;
