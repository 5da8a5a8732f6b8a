import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';

// ajv-formats is CommonJS; under NodeNext its default export arrives wrapped.
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

function makeAjv(coerceTypes: boolean | 'array'): Ajv {
  const ajv = new Ajv({
    coerceTypes,
    useDefaults: true,
    removeAdditional: true,
    allErrors: false,
    strict: false,
    // strict: false would also turn strictNumbers off, letting Infinity (from 1e309) through as an integer.
    strictNumbers: true,
  });
  addFormats(ajv);
  return ajv;
}

// JSON bodies are taken as sent: a number where a string belongs is a 400, not a silent conversion (clients must
// learn about their bug). Query strings, params and headers are text on the wire, so they are parsed to the
// declared types.
const bodyAjv = makeAjv(false);
const textAjv = makeAjv('array');

const beyondRange = (v: unknown): boolean => typeof v === 'number' && (!Number.isFinite(v) || Math.abs(v) > Number.MAX_SAFE_INTEGER);

/**
 * A field of a query, path or header object that coercion turned into a number beyond any range ("1e309"). Runs
 * on every request's headers: no entry pairs or arrays are made for it.
 */
function outOfRange(data: unknown): string | null {
  if (!data || typeof data !== 'object') return null;
  for (const name of Object.keys(data)) {
    const value = (data as Record<string, unknown>)[name];
    if (Array.isArray(value) ? value.some(beyondRange) : beyondRange(value)) return name;
  }
  return null;
}

export const validatorCompiler: FastifySchemaCompiler<object> = ({ schema, httpPart }) => {
  if (httpPart === 'body') return bodyAjv.compile(schema) as ReturnType<FastifySchemaCompiler<object>>;
  const validate = textAjv.compile(schema);
  // ajv coerces "1e309" to Infinity and then accepts it even as an integer with a maximum: checked once more here.
  // JSON bodies are not coerced; the input guard refuses non-finite numbers there.
  return (data: unknown) => {
    if (!validate(data)) return { error: validate.errors ?? [] };
    const field = outOfRange(data);
    if (field) return { error: [{ instancePath: `/${field}`, schemaPath: '', keyword: 'maximum', params: {}, message: 'is out of range' }] };
    // ajv coerced and filled `data` in place, so it is handed back as valid, not as a new value: for headers,
    // Fastify took a value as replacement headers and then copied every header on each read of request.headers.
    return true;
  };
};
