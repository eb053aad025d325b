import type { IncomingMessage, ServerResponse } from "node:http";
import { prettifyError, type z } from "zod";
import { readCapped } from "../read-capped.ts";
import { ApiFailure, invalidRequest } from "./api-failure.ts";

/** Reads the body up to `limit` bytes; a larger one is refused (413) without reading it all. */
export async function readBody(req: IncomingMessage, limit: number): Promise<string> {
  const body = await readCapped(req, limit);
  if (body === null) throw tooLarge(limit);
  return body.toString("utf8");
}

function tooLarge(limit: number): ApiFailure {
  return new ApiFailure(
    413,
    "invalid_request",
    `The request body is larger than ${limit} bytes. Keep results small: evidence and handoff are summaries; logs belong in the run's artifacts.`,
  );
}

/** Parses a JSON body against a contract schema; the message names the field that is wrong. */
export function parseJson<S extends z.ZodType>(text: string, schema: S, what: string): z.output<S> {
  let raw: unknown;
  try {
    raw = text.trim() === "" ? {} : JSON.parse(text);
  } catch {
    throw invalidRequest(`The ${what} body is not JSON; send Content-Type: application/json.`);
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    throw invalidRequest(
      `The ${what} body does not match the tick API:\n${prettifyError(parsed.error)}`,
    );
  }
  return parsed.data;
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent) return;
  res.writeHead(status, {
    "content-type": "application/json",
    "cache-control": "no-store",
    ...headers,
  });
  res.end(JSON.stringify(body));
}

export function sendFailure(res: ServerResponse, failure: ApiFailure): void {
  const headers: Record<string, string> = {};
  if (failure.retryAfterSeconds !== null)
    headers["retry-after"] = String(failure.retryAfterSeconds);
  sendJson(res, failure.status, failure.body, headers);
}
