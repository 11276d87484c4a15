/** Shared types of the cdn-sim request pipeline. */
import type { IncomingHttpHeaders } from 'node:http';
import type { SimState } from './state.js';

/** API area of a route: decides the error body shapes (contract, Errors table). */
export type Area = 'core' | 'mc' | 'shield' | 'compute';

/** A parsed request as seen by a route handler. */
export interface SimRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  params: Record<string, string>;
  /** Parsed JSON body; undefined when the request had none. */
  body: unknown;
  /** The body's bytes as they came, on a route whose `rawBody` is `binary` (an image upload). */
  rawBytes?: Buffer;
  headers: IncomingHttpHeaders;
}

/** What a handler answers; `body` undefined means an empty body. */
export interface SimResponse {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** With a string `body`: sent as is with this Content-Type instead of as JSON. */
  contentType?: string;
}

/** Everything a handler may touch. */
export interface SimContext {
  state: SimState;
}

/** A route handler: pure over (request, state), synchronous. */
export type Handler = (req: SimRequest, ctx: SimContext) => SimResponse;

/** One route of the management API. */
export interface RouteDef {
  method: string;
  /** Templated path, e.g. `/pullzone/{id}`; also the counter name with the method. */
  template: string;
  area: Area;
  handler: Handler;
  /**
   * The request body is raw text (a file upload, a custom response page's HTML): handed to the
   * handler as a string, and not checked against the document, which declares no JSON body for it.
   * `binary`: raw bytes (an image), handed to the handler as `rawBytes`, whatever the
   * Content-Type (the platform takes the upload leniently).
   */
  rawBody?: boolean | 'binary';
  /**
   * The largest body the route takes (bytes; default 1 MiB): a larger one is answered 413
   * before the handler runs, like the platform's "too large" answer.
   */
  maxBodyBytes?: number;
  /**
   * A route a test installed (`SimulatorOptions.testRoutes`): no official document describes
   * it, so the document gate neither binds nor checks it and its answers are never projected.
   */
  testOnly?: boolean;
}

export type { JsonObject } from './json.js';
