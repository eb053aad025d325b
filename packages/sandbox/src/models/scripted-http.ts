/** The server core shared by the scripted model servers (Anthropic Messages, OpenAI Responses). */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { Socket } from "node:net";

/**
 * A provider never generates past the request's output cap (`max_tokens`, `max_output_tokens`),
 * so a scripted turn reports at most that many output tokens.
 */
export function withinOutputCap<T extends { usage?: { output_tokens?: number } }>(
  turn: T,
  body: unknown,
  key: string,
): T {
  const cap = isRecord(body) ? body[key] : undefined;
  const scripted = turn.usage?.output_tokens ?? 5;
  if (typeof cap !== "number" || scripted <= cap) return turn;
  return { ...turn, usage: { ...turn.usage, output_tokens: cap } };
}

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** The text of the user turns in a list of chat items (`messages` or `input`). */
export function userTextOf(items: unknown): string {
  if (!Array.isArray(items)) return "";
  const out: string[] = [];
  for (const item of items) {
    if (!isRecord(item) || item.role !== "user") continue;
    if (typeof item.content === "string") out.push(item.content);
    else if (Array.isArray(item.content)) {
      for (const c of item.content) if (isRecord(c) && typeof c.text === "string") out.push(c.text);
    }
  }
  return out.join("\n");
}

export function sse(res: ServerResponse, event: string, data: unknown): void {
  res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
}

export function json(res: ServerResponse, status: number, data: unknown): void {
  res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(data));
}

/** The request body as JSON, or the raw text when it is not JSON (recorded as sent). */
export function parseJson(raw: string): unknown {
  if (raw === "") return null;
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage["headers"];
  body: unknown;
}

/** What a dynamic turn can look at: e.g. the prompt, to find the result path it names. */
export interface TurnRequest {
  body: unknown;
  /** All user text in the conversation, joined. */
  prompt: string;
}

/** A scripted turn, or a function of the request that builds it. */
export type ScriptStep<T> = T | ((req: TurnRequest) => T);

/**
 * The turns of a script, chosen by how many assistant turns the request already carries, so
 * a retry or a side request never advances it; past its end every turn is `last`.
 */
export function createScript<T>(steps: ScriptStep<T>[], last: T) {
  let served = 0;
  return {
    turn(index: number, req: TurnRequest): T {
      const step = steps[index] ?? last;
      if (index < steps.length) served = Math.max(served, index + 1);
      return typeof step === "function" ? (step as (r: TurnRequest) => T)(req) : step;
    },
    /** The turn `index` would be, without serving it (for a token count of that request). */
    peek(index: number, req: TurnRequest): T {
      const step = steps[index] ?? last;
      return typeof step === "function" ? (step as (r: TurnRequest) => T)(req) : step;
    },
    served: () => served,
  };
}

export interface ScriptedModelOptions<T> {
  turns: ScriptStep<T>[];
  model?: string;
  /** Like the real API: a request without this key (as that API sends it) is refused with 401. */
  apiKey?: string;
}

export interface ScriptedServerOptions {
  /** Whether the request carries the API key the real API would ask for. */
  authorized(req: IncomingMessage): boolean;
  /** The API's own 401 body. */
  unauthorized: unknown;
  /** The API's own body for a request the script failed to answer. */
  failure(message: string): unknown;
  /** Answers a recorded, authorized request. */
  answer(req: IncomingMessage, res: ServerResponse, path: string, body: unknown): Promise<void>;
}

export interface ScriptedServer {
  /** http://127.0.0.1:<port> */
  origin: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

/** A model API stand-in on 127.0.0.1: records every request, refuses a wrong key, answers. */
export async function startScriptedServer(opts: ScriptedServerOptions): Promise<ScriptedServer> {
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    void handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
      res.end(JSON.stringify(opts.failure(String(err))));
    });
  });
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    const body = parseJson(await readBody(req));
    requests.push({ method: req.method ?? "", path, headers: req.headers, body });
    if (!opts.authorized(req)) json(res, 401, opts.unauthorized);
    else await opts.answer(req, res, path, body);
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (!address || typeof address === "string") throw new Error("the scripted model has no port");
  return {
    origin: `http://127.0.0.1:${address.port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Opens a server-sent event stream, as both APIs answer `stream: true`. */
export function startStream(res: ServerResponse): void {
  res.writeHead(200, {
    "content-type": "text/event-stream",
    "cache-control": "no-cache",
    connection: "keep-alive",
  });
}
