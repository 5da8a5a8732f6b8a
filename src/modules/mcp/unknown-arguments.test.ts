import { describe, expect, it } from 'vitest';
import { closestName, unknownArguments } from './unknown-arguments.ts';

const Search = { properties: { to: { type: 'string' }, status: { type: 'string' }, campaign_id: { type: 'string' } } };

describe('unknown MCP arguments', () => {
  it('accepts arguments the schema names', () => {
    expect(unknownArguments(Search, { to: '0412', status: 'sent' })).toBeNull();
    expect(unknownArguments(Search, {})).toBeNull();
  });

  it('refuses any other name with the valid ones and the likely one', () => {
    const err = unknownArguments(Search, { staus: 'sent', recipient: '0412' })!;
    expect(err.code).toBe('validation_failed');
    expect(err.message).toBe('Unknown argument staus, recipient (did you mean status?): it takes to, status, campaign_id');
    expect(err.extra).toEqual({
      valid_arguments: ['to', 'status', 'campaign_id'],
      details: [
        { field: 'staus', message: 'is not an argument of this tool (did you mean status?)' },
        { field: 'recipient', message: 'is not an argument of this tool' },
      ],
    });
  });

  it('names no arguments for a tool that takes none, and never takes a prototype name as valid', () => {
    const err = unknownArguments({ properties: {} }, { constructor: 1 })!;
    expect(err.message).toBe('Unknown argument constructor: it takes no arguments');
  });

  it('guesses a close or containing name, and nothing for an unrelated one', () => {
    expect(closestName('campaign', ['campaign_id', 'status'])).toBe('campaign_id');
    expect(closestName('Status', ['to', 'status'])).toBe('status');
    expect(closestName('limt', ['limit', 'offset'])).toBe('limit');
    expect(closestName('recipient', ['to', 'status'])).toBeNull();
  });
});
