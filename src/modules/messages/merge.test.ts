import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { checkMerge, fieldsOf, missingFields, placeholderKeys, renderMerge, templateHasPlaceholder } from './merge.ts';

describe('renderMerge', () => {
  it.each<[template: string, data: Record<string, string> | undefined, expected: string]>([
    ['Hi {{name}}', { name: 'Ana' }, 'Hi Ana'],
    ['Hi {{ name }}', { name: 'Ana' }, 'Hi Ana'],
    ['Hi {{name }}!', { name: 'Ana' }, 'Hi Ana!'],
    ['Hi {{\tname\t}}', { name: 'Ana' }, 'Hi Ana'],
    ['Hi {{name}}', {}, 'Hi '],
    ['Hi {{name}}', undefined, 'Hi '],
    ['Hi {{Name}}', { name: 'Ana' }, 'Hi '], // case-sensitive
    ['{{a}}{{b}}{{a}}', { a: '1', b: '2' }, '121'],
    ['{{first name}}', { 'first name': 'Ana' }, 'Ana'],
    ['{{ first name }}', { 'first name': 'Ana' }, 'Ana'],
    ['no placeholders', { name: 'Ana' }, 'no placeholders'],
    ['', { name: 'Ana' }, ''],
    ['{name}', { name: 'Ana' }, '{name}'],
    ['{{name}', { name: 'Ana' }, '{{name}'],
    ['{{ }}', { '': 'x', ' ': 'y' }, '{{ }}'],
    ['{{}}', { '': 'x' }, '{{}}'],
    ['{{{name}}}', { name: 'Ana' }, '{Ana}'],
    ['{{na{me}}', { name: 'Ana' }, '{{na{me}}'],
    ['{{constructor}}{{__proto__}}{{toString}}', {}, ''],
    ['{{hasOwnProperty}}', undefined, ''],
    ['Hi {{name}}', { name: '' }, 'Hi '],
    ['Hi {{name}} 😀', { name: 'Zoë' }, 'Hi Zoë 😀'],
  ])('%j with %j → %j', (template, data, expected) => {
    expect(renderMerge(template, data)).toBe(expected);
  });

  it('does not re-expand placeholders inside values (single pass)', () => {
    expect(renderMerge('{{a}} {{b}}', { a: '{{b}}', b: 'B' })).toBe('{{b}} B');
    expect(renderMerge('{{a}}', { a: '{{OptOutLink}}' }, { OptOutLink: 'https://x/abc' })).toBe('{{OptOutLink}}');
    expect(renderMerge('{{a}}', { a: '{{a}}' })).toBe('{{a}}');
  });

  it('inserts replacement patterns literally', () => {
    expect(renderMerge('{{a}}', { a: '$& $1 $$ $` $\'' })).toBe('$& $1 $$ $` $\'');
  });

  it('lets extra win over data for its key, and falls back to data otherwise', () => {
    const extra = { OptOutLink: 'https://o.example/Ab3dE9z' };
    expect(renderMerge('Stop: {{OptOutLink}}', { OptOutLink: 'evil' }, extra)).toBe('Stop: https://o.example/Ab3dE9z');
    expect(renderMerge('{{name}} {{OptOutLink}}', { name: 'Ana' }, extra)).toBe('Ana https://o.example/Ab3dE9z');
    expect(renderMerge('{{ OptOutLink }}', undefined, extra)).toBe('https://o.example/Ab3dE9z');
    expect(renderMerge('{{optoutlink}}', undefined, extra)).toBe('');
    expect(renderMerge('{{OptOutLink}}', undefined)).toBe('');
  });

  it('ignores values that are not strings at run time', () => {
    const data = { n: 5 } as unknown as Record<string, string>;
    expect(renderMerge('[{{n}}]', data)).toBe('[]');
  });

  it('is the identity on templates without placeholders', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary' }).filter((t) => !/\{\{[^{}]*\}\}/.test(t)),
        fc.dictionary(fc.string(), fc.string()),
        (template, data) => {
          expect(renderMerge(template, data)).toBe(template);
        },
      ),
    );
  });

  it('never expands braces in values', () => {
    const key = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,10}$/);
    fc.assert(
      fc.property(key, fc.string(), key, fc.string(), (k1, v1, k2, v2) => {
        // Two equal keys would make one object key: the second value would replace the first.
        fc.pre(k1 !== k2);
        const value = `{{${k2}}}${v1}{{ ${k2} }}`;
        const rendered = renderMerge(`<{{${k1}}}>`, { [k1]: value, [k2]: v2 });
        expect(rendered).toBe(`<${value}>`);
      }),
    );
  });

  it('renders a template to its literal parts joined with the looked-up values', () => {
    const key = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,8}$/);
    const literal = fc.string().map((s) => s.replace(/[{}]/g, ''));
    fc.assert(
      fc.property(
        fc.array(fc.tuple(literal, key), { maxLength: 6 }),
        literal,
        fc.dictionary(key, fc.string()),
        (pieces, tail, data) => {
          const template = pieces.map(([text, k]) => `${text}{{${k}}}`).join('') + tail;
          const expected = pieces.map(([text, k]) => text + (Object.hasOwn(data, k) ? data[k] : '')).join('') + tail;
          expect(renderMerge(template, data)).toBe(expected);
        },
      ),
    );
  });
});

describe('placeholderKeys', () => {
  it.each<[string, string[]]>([
    ['', []],
    ['plain text', []],
    ['{{a}}', ['a']],
    ['{{ a }} {{a}} {{b}}', ['a', 'b']],
    ['{{b}}{{a}}{{b}}', ['b', 'a']],
    ['{{OptOutLink}}', ['OptOutLink']],
    ['{{ }} {{}} {a} {{a}', []],
    ['{{first name}}', ['first name']],
    ['{{{x}}}', ['x']],
  ])('%j → %j', (template, keys) => {
    expect(placeholderKeys(template)).toEqual(keys);
  });
});

describe('templateHasPlaceholder', () => {
  it.each<[string, string, boolean]>([
    ['Stop: {{OptOutLink}}', 'OptOutLink', true],
    ['Stop: {{ OptOutLink }}', 'OptOutLink', true],
    ['Stop: {{optoutlink}}', 'OptOutLink', false],
    ['Stop: {OptOutLink}', 'OptOutLink', false],
    ['OptOutLink', 'OptOutLink', false],
    ['{{name}}', 'OptOutLink', false],
    ['', 'OptOutLink', false],
  ])('%j has %j: %s', (template, key, expected) => {
    expect(templateHasPlaceholder(template, key)).toBe(expected);
  });

  it('is called repeatedly without regex state leaking between calls', () => {
    for (let i = 0; i < 3; i++) expect(templateHasPlaceholder('{{a}}', 'a')).toBe(true);
  });
});

describe('single braces', () => {
  const fields = new Set(['name', 'first name']);
  it.each<[template: string, expected: string]>([
    ['Hi {name}', 'Hi Ana'],
    ['Hi { name }', 'Hi Ana'],
    ['Hi {first name}', 'Hi A'],
    ['Hi {nmae}', 'Hi {nmae}'], // not a field of the batch: left as written
    ['{"a": 1}', '{"a": 1}'],
    ['{}', '{}'],
    ['Hi {{name}} and {name}', 'Hi Ana and Ana'],
    ['{{{name}}}', '{Ana}'],
    ['{OptOutLink}', '{OptOutLink}'],
  ])('%j → %j', (template, expected) => {
    expect(renderMerge(template, { name: 'Ana', 'first name': 'A' }, { OptOutLink: 'L' }, fields)).toBe(expected);
  });

  it('are left alone when the batch has no fields', () => {
    expect(renderMerge('Hi {name}', { name: 'Ana' })).toBe('Hi {name}');
    expect(renderMerge('Hi {name}', { name: 'Ana' }, undefined, new Set())).toBe('Hi {name}');
  });
});

describe('checkMerge', () => {
  it('names the placeholders nothing fills, and the known fields', () => {
    expect(checkMerge('Hi {{nmae}} {{name}} {{OptOutLink}} {{x}}', new Set(['name']))).toEqual({
      unknown: ['nmae', 'x'], known: ['name', 'OptOutLink', 'SendingNumber'], used: ['name'],
    });
  });

  it('counts single-brace fields as used, and never single-brace text as unknown', () => {
    expect(checkMerge('Hi {name}, {nope}', new Set(['name']))).toEqual({ unknown: [], known: ['name', 'OptOutLink', 'SendingNumber'], used: ['name'] });
    expect(checkMerge('Hi {name}', new Set()).used).toEqual([]);
  });

  it('lists what one recipient lacks', () => {
    expect(missingFields(['name', 'code'], { name: '' })).toEqual(['code']);
    expect(missingFields(['name'], undefined)).toEqual(['name']);
    expect(fieldsOf([{ a: '1' }, undefined, { b: '2', a: '3' }])).toEqual(new Set(['a', 'b']));
  });

  it('finds no unknown field in a template whose placeholders all come from the data (property)', () => {
    fc.assert(fc.property(fc.array(fc.stringMatching(/^[a-z_]{1,8}$/), { minLength: 1, maxLength: 5 }), (keys) => {
      const template = keys.map((k) => `{{${k}}}`).join(' ');
      return checkMerge(template, new Set(keys)).unknown.length === 0 && checkMerge(template, new Set()).unknown.length === new Set(keys).size;
    }));
  });
});
