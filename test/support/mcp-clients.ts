import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

export type McpTransportKind = 'http' | 'stdio';

const BIN = path.resolve(import.meta.dirname, '../../bin/tasman.js');

/** The official SDK client on either transport: /mcp over HTTP with a bearer key, or `tasman mcp` over stdio. */
export async function connectMcp(kind: McpTransportKind, baseUrl: string, apiKey: string, env: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'tasman-test', version: '1.0.0' });
  const transport = kind === 'http'
    ? new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), { requestInit: { headers: { authorization: `Bearer ${apiKey}` } } })
    : new StdioClientTransport({
      command: process.execPath, args: [BIN, 'mcp'], stderr: 'pipe',
      env: { PATH: process.env.PATH ?? '', TASMAN_URL: baseUrl, TASMAN_API_KEY: apiKey, ...env },
    });
  await client.connect(transport);
  return client;
}

/** One tool call, its result as the SDK client returns it. */
export const callTool = (client: Client, name: string, args: Record<string, unknown> = {}) =>
  client.callTool({ name, arguments: args }) as Promise<CallToolResult>;

/** A tool result that must have succeeded: its structured content. */
export function ok(result: CallToolResult): Record<string, unknown> {
  if (result.isError) throw new Error(`tool failed: ${JSON.stringify(result.content)}`);
  return result.structuredContent as Record<string, unknown>;
}

/** A tool result that must be a refusal: the API's `{error, code, ...}` carried in its text. */
export function refusal(result: CallToolResult): { error: string; code: string; [k: string]: unknown } {
  if (!result.isError) throw new Error(`tool unexpectedly succeeded: ${JSON.stringify(result.structuredContent)}`);
  const first = result.content[0];
  if (first?.type !== 'text') throw new Error('no text content');
  return JSON.parse(first.text) as { error: string; code: string };
}
