import { Type } from 'typebox';
import type { TObject } from '@fastify/type-provider-typebox';
import { IdempotencyHeaders } from '../../platform/http/idempotency.ts';
import type { ApiRequest, OperationName, TasmanApi } from './operations.ts';

// What every MCP tool is made of, and the pieces several tool files share (tools.schemas.ts lists them all).

export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

export interface ToolDefinition {
  name: string;
  title: string;
  description: string;
  op: OperationName;
  input: TObject;
  output: TObject;
  annotations: ToolAnnotations;
  request(args: Record<string, unknown>): ApiRequest;
  /**
   * The most the call could spend or move, checked against MCP_MAX_CREDITS_PER_CALL before it is made; worked out
   * from the arguments, or asked of the API (`api`) when they do not say it (a contact list's recipients).
   */
  credits?(args: Record<string, unknown>, optoutLink: string, api: TasmanApi): number | Promise<number>;
  /** Shapes the route's answer for an agent (still valid against `output`). */
  response?(result: unknown): unknown;
}

export const READ: ToolAnnotations = { readOnlyHint: true, openWorldHint: false };
// Spending credits cannot be undone and reaches real phones: clients that confirm destructive calls confirm these.
export const SPENDS: ToolAnnotations = { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true };

// A read tool on a route that takes nothing: no arguments, an empty request.
export const READ_NOTHING = { input: Type.Object({}), annotations: READ, request: (): ApiRequest => ({}) };

/**
 * A tool that sends or spends takes `idempotency_key`, the REST routes' Idempotency-Key (same rules, same
 * per-account scope): a retry with the same key and arguments replays the first result instead of sending again.
 */
export function keyed(input: TObject): TObject {
  return Type.Object({
    ...input.properties,
    idempotency_key: Type.Optional(Type.String({ ...IdempotencyHeaders.properties['idempotency-key'], description: 'Unique per intended call; a retry with it replays the first result, never sends twice' })),
  });
}

export const ASK = 'Ask the user to confirm recipients, text and cost first.';
