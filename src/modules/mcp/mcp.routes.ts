import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { scopeOf } from '../../platform/http/route-registry.ts';
import { once } from '../../common/once.ts';
import type { Config } from '../../config.ts';
import { sampleOptoutLink } from './credit-estimate.ts';
import { assertOperationsRouted, createServiceApi, type ServiceApiDeps } from './service-api.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The MCP tool this request called, and its error code: written into the request's log line. */
    mcpTool: { tool: string; code: string | null } | null;
  }
}

// Headers the MCP transport reads; the body is handed over already parsed.
const FORWARDED = ['accept', 'content-type', 'mcp-protocol-version', 'mcp-session-id'];

// The MCP SDK (and the zod it brings) is loaded by the first /mcp call, not at start: about 15 MB resident in
// every API process that never serves one (decision 0037).
const loadSdk = once(() => Promise.all([import('./mcp-server.ts'), import('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js')]));

const jsonRpcError = (code: number, message: string) => ({ jsonrpc: '2.0', id: null, error: { code, message } });

/** What /mcp uses, and nothing else. */
export type McpRoutesDeps = ServiceApiDeps & {
  /** MCP_MAX_CREDITS_PER_CALL: a send tool refuses a call that would spend more. */
  maxCreditsPerCall: Config['mcp']['maxCreditsPerCall'];
  /** OPTOUT_LINK_BASE, for the credit estimate of a message with an opt-out link. */
  optoutLinkBase: string;
};

/**
 * Streamable HTTP at /mcp, stateless: each POST carries one JSON-RPC message and gets one JSON answer, on a server
 * built for the caller's key. The API-key hook has already authenticated and rate-limited the request (one tool
 * call = one request against the key's limits); each tool then checks its own scope. Batches are refused so a
 * single request can never carry more than one tool call past the limiter.
 */
export const mcpRoutes: FastifyPluginAsync<McpRoutesDeps> = async (app, deps) => {
  // Each tool's scope is its REST route's, as the route registry recorded it.
  const routeScope = (method: string, url: string) => scopeOf(app, method, url);
  const { maxCreditsPerCall } = deps;
  const optoutLink = sampleOptoutLink(deps.optoutLinkBase);
  app.decorateRequest('mcpTool', null);
  app.addHook('onReady', async () => assertOperationsRouted(routeScope));

  app.post('/mcp', {
    config: { scope: 'any' },
    schema: {
      tags: ['MCP'], summary: 'Model Context Protocol, Streamable HTTP (JSON-RPC; see docs/mcp.md)',
      description: 'The MCP server for AI agents, over Streamable HTTP: JSON-RPC requests list and call tools that are this API\'s operations (send, preview, track, inbox, opt-outs, balance, reports…). Each tool checks the scope its operation needs against the key\'s, and a send tool refuses a call over the configured credit ceiling. Answers JSON-RPC, not this API\'s error body. See docs/mcp.md.',
    },
  }, async (request, reply) => {
    if (Array.isArray(request.body)) {
      return reply.status(400).send(jsonRpcError(-32600, 'Send one JSON-RPC message per request (batches are not accepted)'));
    }
    const [{ createMcpServer }, { WebStandardStreamableHTTPServerTransport }] = await loadSdk();
    const server = createMcpServer({
      api: createServiceApi(deps, request.actor, routeScope),
      maxCreditsPerCall, optoutLink,
      onToolCall: ({ tool, code, error }) => {
        request.mcpTool = { tool, code };
        if (error) request.log.error({ err: error, tool }, 'MCP tool failed');
      },
    });
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    try {
      const res = await transport.handleRequest(webRequest(request), { parsedBody: request.body });
      reply.status(res.status);
      res.headers.forEach((value, name) => { reply.header(name, value); });
      return reply.send(await res.text());
    } finally {
      await server.close();
    }
  });

  // Stateless: no server-to-client stream to open and no session to end.
  for (const method of ['GET', 'DELETE'] as const) {
    app.route({
      method, url: '/mcp', config: { scope: 'any' }, schema: { hide: true },
      handler: async (_request, reply) => reply.status(405).header('allow', 'POST').send(jsonRpcError(-32000, 'Method not allowed: this server is stateless, POST only')),
    });
  }
};

function webRequest(request: FastifyRequest): Request {
  const headers = new Headers();
  for (const name of FORWARDED) {
    const value = request.headers[name];
    if (typeof value === 'string') headers.set(name, value);
  }
  return new Request(`http://${request.hostname || 'localhost'}${request.url}`, { method: 'POST', headers });
}
