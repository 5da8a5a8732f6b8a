import { Command } from 'commander';
import { loadMcpClientConfig, type McpClientConfig } from '../config.ts';

/**
 * `tasman mcp`: the MCP server on stdio for a local agent, calling the REST API of any Tasman (TASMAN_URL) with
 * TASMAN_API_KEY, so that API applies every rule, scope and limit. stdout carries only the protocol.
 */
export function mcpCommand(): Command {
  return new Command('mcp')
    .description('an MCP server on stdio for AI agents, calling the REST API of TASMAN_URL with TASMAN_API_KEY')
    .addHelpText('after', `
Environment:
  TASMAN_API_KEY            the API key the agent uses (required; give it only the scopes it needs)
  TASMAN_URL                the Tasman to call (default http://127.0.0.1:3000)
  MCP_MAX_CREDITS_PER_CALL  refuse a tool call that could spend or move more credits (default 50)

Tools, resources and client configurations: docs/mcp.md.`)
    .action(async () => { await runMcp(loadMcpClientConfig()); });
}

/** Serves until the client closes stdin. The SDK loads only here, so `tasman --help` starts nothing. */
async function runMcp(config: McpClientConfig): Promise<void> {
  const [{ StdioServerTransport }, { sampleOptoutLink }, { createHttpApi }, { createMcpServer }] = await Promise.all([
    import('@modelcontextprotocol/sdk/server/stdio.js'),
    import('../modules/mcp/credit-estimate.ts'),
    import('../modules/mcp/http-api.ts'),
    import('../modules/mcp/mcp-server.ts'),
  ]);
  const server = createMcpServer({
    api: createHttpApi({ baseUrl: config.url, apiKey: config.apiKey }),
    maxCreditsPerCall: config.maxCreditsPerCall,
    // The link base of a remote Tasman is unknown here; its default form (TASMAN_URL/o/<code>) is the estimate.
    optoutLink: sampleOptoutLink(`${config.url}/o`),
  });
  const closed = new Promise<void>((resolve) => { server.onclose = resolve; });
  await server.connect(new StdioServerTransport());
  process.stdin.once('end', () => { void server.close(); });
  await closed;
}
