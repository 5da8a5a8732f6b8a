import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema, ErrorCode, GetPromptRequestSchema, ListPromptsRequestSchema, ListResourcesRequestSchema, ListToolsRequestSchema,
  McpError, ReadResourceRequestSchema, type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import fastJson from 'fast-json-stringify';
import { AppError } from '../../platform/errors.ts';
import { fieldOf } from '../../platform/http/errors.ts';
import { validatorCompiler } from '../../platform/http/validation.ts';
import { ApiError } from './http-api.ts';
import type { TasmanApi } from './operations.ts';
import { prompts, renderPrompt } from './prompts.ts';
import { resources } from './resources.ts';
import { listedTools } from './tool-listing.ts';
import { tools } from './tools.schemas.ts';
import type { ToolDefinition } from './tool-definition.schemas.ts';
import { unknownArguments } from './unknown-arguments.ts';

export interface McpServerOptions {
  api: TasmanApi;
  /** MCP_MAX_CREDITS_PER_CALL: a call that could spend or move more is refused before it is made. */
  maxCreditsPerCall: number;
  /** An opt-out link as long as the real ones, for estimating what a message will cost. */
  optoutLink: string;
  /** After every tool call: its name and the error code, if any (the request log). */
  onToolCall?: (call: { tool: string; code: string | null; error?: unknown }) => void;
}

export const SERVER_INFO = { name: 'tasman', version: '1.0.0' };

const INSTRUCTIONS = 'Tasman sends SMS to Australian and New Zealand mobiles for this account. Sending spends credits '
  + 'and reaches real people: confirm recipients and wording with your user before calling send_sms, schedule_sms, '
  + 'send_batch or reply_to_inbound, and pass an idempotency_key so a retry never sends twice. Errors come back as '
  + 'tool results whose text is JSON {error, code}; do not retry a refused call unchanged.';

type ErrorBody = { error: string; code: string; [extra: string]: unknown };

// Compiled once: inputs with the REST body validator (no type coercion, defaults applied; unknown names are refused
// before it runs, so a misspelt filter never widens a search),
// outputs through the route's response schema exactly as Fastify serialises it, so nothing a REST response
// would leave out (a hash, a secret) can reach an agent.
const compiled = new Map(tools.map((tool) => [tool.name, {
  tool,
  validate: validatorCompiler({ schema: tool.input, httpPart: 'body', method: 'POST', url: '/mcp' }) as
    ((value: unknown) => boolean) & { errors?: Array<{ instancePath: string; params: Record<string, unknown>; message?: string }> | null },
  serialise: fastJson(tool.output as object),
}]));

function errorBody(err: unknown): ErrorBody {
  if (err instanceof AppError) return { error: err.message, code: err.code, ...err.extra };
  if (err instanceof ApiError) return err.body;
  return { error: 'Internal error', code: 'internal_error' };
}

const toolError = (body: ErrorBody): CallToolResult => ({ isError: true, content: [{ type: 'text', text: JSON.stringify(body) }] });

function validationError(errors: Array<{ instancePath: string; params: Record<string, unknown>; message?: string }>): AppError {
  const details = errors.map((e) => ({ field: fieldOf(e.instancePath, e.params ?? {}, 'arguments'), message: e.message ?? 'is invalid' }));
  return new AppError('validation_failed', `Invalid arguments: ${details[0]!.field} ${details[0]!.message}`, { details });
}

function creditLimitError(credits: number, max: number): AppError {
  return new AppError('credit_limit_exceeded',
    `This call could spend or move up to ${credits} credits, more than the ${max} an agent may use in one call `
    + '(MCP_MAX_CREDITS_PER_CALL). Ask your user to confirm; they can send it through the dashboard or the API.',
    { credits_required: credits, max_credits_per_call: max });
}

async function runTool(options: McpServerOptions, tool: ToolDefinition, args: Record<string, unknown>): Promise<CallToolResult> {
  const entry = compiled.get(tool.name)!;
  const unknown = unknownArguments(tool.input, args);
  if (unknown) throw unknown;
  if (!entry.validate(args)) throw validationError(entry.validate.errors ?? []);
  const credits = (await tool.credits?.(args, options.optoutLink, options.api)) ?? 0;
  if (credits > options.maxCreditsPerCall) throw creditLimitError(credits, options.maxCreditsPerCall);
  const { idempotency_key: key, ...rest } = args;
  const request = { ...tool.request(rest), ...(typeof key === 'string' ? { idempotencyKey: key } : {}) };
  const result = await options.api(tool.op, request, tool.name);
  const structured = JSON.parse(entry.serialise(tool.response ? tool.response(result) : result)) as Record<string, unknown>;
  return { structuredContent: structured, content: [{ type: 'text', text: JSON.stringify(structured) }] };
}

/**
 * One MCP server over the given API (in-process services for /mcp, the REST API for `tasman mcp`). Refusals are
 * tool results with isError and the API's `{error, code}`, never protocol errors, so an agent can read and act on
 * them; only an unknown tool name is a protocol error.
 */
export function createMcpServer(options: McpServerOptions): Server {
  const server = new Server(SERVER_INFO, { capabilities: { tools: {}, resources: {}, prompts: {} }, instructions: INSTRUCTIONS });

  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listedTools() }));

  server.setRequestHandler(ListPromptsRequestSchema, () => ({
    prompts: prompts.map(({ name, title, description, arguments: args }) => ({ name, title, description, arguments: args })),
  }));

  server.setRequestHandler(GetPromptRequestSchema, (request) => {
    const prompt = prompts.find((p) => p.name === request.params.name);
    if (!prompt) throw new McpError(ErrorCode.InvalidParams, `Unknown prompt: ${request.params.name}`);
    return renderPrompt(prompt, request.params.arguments ?? {});
  });

  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = tools.find((t) => t.name === request.params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
    try {
      // A copy: validation fills defaults in place.
      const result = await runTool(options, tool, structuredClone(request.params.arguments ?? {}));
      options.onToolCall?.({ tool: tool.name, code: null });
      return result;
    } catch (err) {
      const body = errorBody(err);
      options.onToolCall?.({ tool: tool.name, code: body.code, ...(body.code === 'internal_error' ? { error: err } : {}) });
      return toolError(body);
    }
  });

  server.setRequestHandler(ListResourcesRequestSchema, () => ({
    resources: resources.map(({ uri, name, title, description }) => ({ uri, name, title, description, mimeType: 'application/json' })),
  }));

  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const resource = resources.find((r) => r.uri === request.params.uri);
    if (!resource) throw new McpError(ErrorCode.InvalidParams, `Unknown resource: ${request.params.uri}`);
    try {
      const value = await resource.read(options.api);
      return { contents: [{ uri: resource.uri, mimeType: 'application/json', text: JSON.stringify(value) }] };
    } catch (err) {
      const body = errorBody(err);
      throw new McpError(ErrorCode.InvalidRequest, body.error, body);
    }
  });

  return server;
}
