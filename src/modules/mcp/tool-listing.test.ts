import { describe, expect, it } from 'vitest';
import { encode as o200k } from 'gpt-tokenizer/encoding/o200k_base';
import { encode as cl100k } from 'gpt-tokenizer/encoding/cl100k_base';
import { listedTools } from './tool-listing.ts';
import { tools } from './tools.schemas.ts';

// The tool list sits in every agent's context for the whole conversation: it is held to a budget, counted by the
// tokenizers of current models, as the JSON the server answers to tools/list.
const BUDGET = 5_000;

describe('the MCP tool list', () => {
  const json = JSON.stringify({ tools: listedTools() });

  it(`stays under ${BUDGET} tokens`, () => {
    expect(o200k(json).length).toBeLessThan(BUDGET);
    expect(cl100k(json).length).toBeLessThan(BUDGET);
  });

  type Listed = { required?: string[]; properties: Record<string, Record<string, unknown>> };
  const schemaOf = (name: string) => listedTools().find((t) => t.name === name)!.inputSchema as unknown as Listed;

  it('keeps what validation enforces: required names, limits and enums', () => {
    const send = schemaOf('send_sms');
    expect(send.required).toEqual(['to', 'message']);
    expect(send.properties.message).toMatchObject({ type: 'string', minLength: 1 });
    const search = schemaOf('search_messages');
    expect(search.properties.status).toMatchObject({ type: 'string', enum: ['queued', 'scheduled', 'sent', 'delivered', 'failed', 'cancelled'] });
    expect(search.properties.campaign_id).toEqual({ type: 'string', format: 'uuid', description: 'Only messages of this campaign' });
    expect(json).not.toContain('"examples"');
  });

  it('gives every tool that sends or spends an idempotency_key and says to ask the user', () => {
    for (const tool of tools.filter((t) => t.credits)) {
      expect(Object.keys(tool.input.properties), tool.name).toContain('idempotency_key');
      expect(tool.description, tool.name).toMatch(/Ask the user/);
    }
    for (const tool of tools.filter((t) => !t.credits)) expect(Object.keys(tool.input.properties), tool.name).not.toContain('idempotency_key');
  });
});
