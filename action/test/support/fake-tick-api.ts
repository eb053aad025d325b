import { createServer, type IncomingMessage, type Server } from "node:http";
import {
  AskRequest,
  type AskResponse,
  PushedRequest,
  ResultRequest,
  type ResultResponse,
  type WakeResponse,
} from "@loopx/core";
import { createRemoteJWKSet, type JWTPayload, jwtVerify } from "jose";
import type { z } from "zod";

export type Answer = { status: number; body: unknown };
/** Dates may be Dates or ISO strings: the answer is sent as JSON. */
type AskJson = z.input<typeof AskResponse>;
type ResultJson = z.input<typeof ResultResponse>;

export interface RecordedCall {
  path: string;
  body: unknown;
  claims: JWTPayload;
}

/**
 * A test double of the App's tick API over real HTTP: it verifies the OIDC token against the
 * sandbox's issuer (audience, one use per jti, like the App), parses every request with core's
 * schemas (400 otherwise) and answers what the test scripted (JSON-encoded, so dates travel as
 * strings as they would).
 */
export class FakeTickApi {
  calls: RecordedCall[] = [];
  ask: AskJson | Answer = { status: 500, body: { error: "unavailable", message: "no script" } };
  result: ResultJson | Answer | (() => ResultJson | Answer) = {
    status: 500,
    body: { error: "unavailable", message: "no script" },
  };
  pushed: Answer = { status: 200, body: { recorded: true } };
  wake: z.input<typeof WakeResponse> | Answer = { dispatched: [] };
  private readonly usedJti = new Set<string>();
  private readonly queued = new Map<string, Answer[]>();
  private server: Server | null = null;
  url = "";

  /** `audience`: by default the double's own URL, as the App's is its LOOPX_PUBLIC_URL. */
  constructor(
    private readonly issuer: string,
    private readonly audience?: string,
  ) {}

  async start(): Promise<this> {
    const jwks = createRemoteJWKSet(new URL(`${this.issuer}/.well-known/jwks`));
    this.server = createServer((req, res) => {
      this.handle(req, jwks)
        .then(({ status, body }) => {
          res.writeHead(status, { "content-type": "application/json" });
          res.end(body === null ? "" : JSON.stringify(body));
        })
        .catch((error: unknown) => {
          res.writeHead(500, { "content-type": "application/json" });
          res.end(JSON.stringify({ error: "unavailable", message: String(error) }));
        });
    });
    await new Promise<void>((done) => this.server?.listen(0, "127.0.0.1", done));
    const address = this.server.address();
    if (!address || typeof address === "string") throw new Error("the tick API double has no port");
    this.url = `http://127.0.0.1:${address.port}`;
    return this;
  }

  stop(): Promise<void> {
    return new Promise((done) => {
      this.server?.closeAllConnections();
      this.server?.close(() => done());
    });
  }

  /** Answers the next calls to `path` with these, in order, before the scripted answer. */
  failNext(path: string, ...answers: Answer[]): void {
    this.queued.set(path, [...(this.queued.get(path) ?? []), ...answers]);
  }

  bodies(path: string): unknown[] {
    return this.calls.filter((c) => c.path === path).map((c) => c.body);
  }

  private async handle(
    req: IncomingMessage,
    jwks: ReturnType<typeof createRemoteJWKSet>,
  ): Promise<Answer> {
    const path = req.url ?? "";
    const token = /^Bearer (\S+)$/.exec(req.headers.authorization ?? "")?.[1];
    if (!token) return refuse(401, "unauthenticated", "no bearer token");
    let claims: JWTPayload;
    try {
      ({ payload: claims } = await jwtVerify(token, jwks, {
        issuer: this.issuer,
        audience: this.audience ?? this.url,
      }));
    } catch (error) {
      return refuse(401, "unauthenticated", String(error));
    }
    if (!claims.jti || this.usedJti.has(claims.jti))
      return refuse(401, "unauthenticated", "token replayed");
    this.usedJti.add(claims.jti);
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(Buffer.from(c));
    const raw: unknown = JSON.parse(Buffer.concat(chunks).toString("utf8") || "null");
    const parse = <S extends z.ZodType>(schema: S) => {
      const r = schema.safeParse(raw);
      return r.success ? r.data : null;
    };
    const queued = this.queued.get(path)?.shift();
    if (queued) {
      this.calls.push({ path, body: raw, claims });
      return queued;
    }
    const tick = /^\/api\/v1\/ticks\/([0-9a-f-]{36})\/(result|pushed)$/.exec(path);
    let answer: unknown;
    if (req.method === "POST" && path === "/api/v1/wake") {
      answer = this.wake;
    } else if (req.method === "POST" && path === "/api/v1/ticks") {
      if (!parse(AskRequest)) return refuse(400, "invalid_request", "bad AskRequest");
      answer = this.ask;
    } else if (req.method === "POST" && tick?.[2] === "result") {
      if (!parse(ResultRequest)) return refuse(400, "invalid_request", "bad ResultRequest");
      answer = typeof this.result === "function" ? this.result() : this.result;
    } else if (req.method === "POST" && tick?.[2] === "pushed") {
      if (!parse(PushedRequest)) return refuse(400, "invalid_request", "bad PushedRequest");
      answer = this.pushed;
    } else {
      return refuse(404, "not_found", `${req.method} ${path}`);
    }
    this.calls.push({ path, body: raw, claims });
    return isAnswer(answer) ? answer : { status: 200, body: answer };
  }
}

function isAnswer(value: unknown): value is Answer {
  return typeof value === "object" && value !== null && "status" in value && "body" in value;
}

function refuse(status: number, error: string, message: string): Answer {
  return { status, body: { error, message } };
}
