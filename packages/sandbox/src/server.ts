import { createHash, randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { authenticate, type Principal } from "./auth.ts";
import type { Clock } from "./clock.ts";
import { type Faults, SECONDARY_LIMIT_MESSAGE } from "./faults.ts";
import { type GitHttpDeps, isGitPath, serveGit } from "./git/http.ts";
import { DOCS, HttpError } from "./http-error.ts";
import type { OidcIssuer } from "./oidc.ts";
import type { RequestLogEntry } from "./request-log.ts";
import type { Method, Router } from "./router.ts";
import type { ServiceReply } from "./services/reply.ts";
import type { Store } from "./state/store.ts";
import { recordUnsupported } from "./strict.ts";

export interface ServerDeps {
  store: Store;
  clock: Clock;
  router: Router;
  faults: Faults;
  oidc: OidcIssuer;
  log: RequestLogEntry[];
  inspect: (path: string) => unknown;
  git: GitHttpDeps;
  /** The Actions services jobs reach with their runtime token (cache, results). */
  services: Array<{
    handles(path: string): boolean;
    handle(req: IncomingMessage, path: string, query: URLSearchParams): Promise<ServiceReply>;
  }>;
}

const RATE_LIMIT = 5000;
/** GitHub's primary limit for unauthenticated requests, per hour and originating address. */
const ANONYMOUS_RATE_LIMIT = 60;

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  const text = Buffer.concat(chunks).toString("utf8");
  if (text.trim() === "") return undefined;
  // The OAuth endpoints take forms, as github.com's do.
  if (/^application\/x-www-form-urlencoded/.test(req.headers["content-type"] ?? ""))
    return Object.fromEntries(new URLSearchParams(text));
  try {
    return JSON.parse(text);
  } catch {
    throw new HttpError(400, "Problems parsing JSON");
  }
}

function send(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string>,
): void {
  // `Accept: application/vnd.github.raw` answers a file's bytes as they are (Probot's config
  // loader asks for that); everything else is JSON.
  const raw =
    typeof body === "string" &&
    /^application\/(vnd\.github|x-www-form-urlencoded)/.test(headers["content-type"] ?? "");
  const text = body === undefined || status === 204 ? "" : raw ? body : JSON.stringify(body);
  res.writeHead(status, {
    ...(text ? { "content-type": "application/json; charset=utf-8" } : {}),
    ...headers,
  });
  res.end(text);
}

export function startServer(deps: ServerDeps, port: number): Promise<Server> {
  const { store, clock, router, faults, oidc, log } = deps;
  const used = new Map<string, { window: number; count: number }>();

  const rateHeaders = (principal: Principal): Record<string, string> => {
    const key =
      principal.kind === "installation" || principal.kind === "user" || principal.kind === "job"
        ? principal.token.token
        : "anonymous";
    const hour = Math.floor(clock.now() / 3_600_000);
    const entry = used.get(key);
    const current = entry && entry.window === hour ? entry : { window: hour, count: 0 };
    current.count += 1;
    used.set(key, current);
    const limit = key === "anonymous" ? ANONYMOUS_RATE_LIMIT : RATE_LIMIT;
    return {
      "x-ratelimit-limit": String(limit),
      "x-ratelimit-remaining": String(Math.max(0, limit - current.count)),
      "x-ratelimit-used": String(current.count),
      "x-ratelimit-reset": String((hour + 1) * 3600),
      "x-ratelimit-resource": "core",
    };
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? "/", "http://sandbox.invalid");
    const method = (req.method ?? "GET").toUpperCase();
    // GHE style: the REST API also lives under /api/v3, and GraphQL at /api/graphql.
    const path =
      url.pathname === "/api/graphql"
        ? "/graphql"
        : url.pathname.replace(/^\/api\/v3(?=\/|$)/, "") || "/";
    const base: Record<string, string> = {
      "x-github-request-id": randomUUID().toUpperCase(),
      "x-github-media-type": "github.v3; format=json",
      "x-github-api-version-selected": "2022-11-28",
    };
    const entry: RequestLogEntry = {
      method,
      path,
      route: null,
      operationId: null,
      status: 0,
      unsupported: false,
      contentCreating: false,
      by: null,
      body: undefined,
      response: undefined,
      at: clock.now(),
    };
    log.push(entry);
    if (isGitPath(url.pathname)) {
      entry.route = "git";
      res.on("finish", () => {
        entry.status = res.statusCode;
      });
      return serveGit(req, res, url.pathname, url.search.slice(1), deps.git);
    }
    const reply = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      entry.status = status;
      entry.response = body;
      send(res, status, body, { ...base, ...headers });
    };

    if (method === "GET" && path === "/.well-known/openid-configuration")
      return reply(200, oidc.discovery());
    if (method === "GET" && path === "/.well-known/jwks") return reply(200, await oidc.jwks());
    if (method === "GET" && path === "/_services/idtoken") {
      const answer = await oidc.answerRequest(
        req.headers.authorization,
        url.searchParams.get("audience"),
      );
      return reply(answer.status, answer.body);
    }
    const service = deps.services.find((s) => s.handles(path));
    if (service) {
      entry.route = "actions-service";
      const out = await service.handle(req, path, url.searchParams);
      entry.status = out.status;
      entry.response = out.body;
      if (out.raw) {
        res.writeHead(out.status, { "content-type": "application/octet-stream", ...out.headers });
        res.end(out.raw);
        return;
      }
      if (out.body === undefined) {
        res.writeHead(out.status, out.headers ?? {});
        res.end();
        return;
      }
      return reply(out.status, out.body, out.headers);
    }
    if (method === "GET" && path.startsWith("/_sandbox/")) {
      const body = deps.inspect(path.slice("/_sandbox/".length));
      return body === undefined ? reply(404, { message: "Not Found" }) : reply(200, body);
    }

    const matched = router.match(method, path);
    if (!matched) {
      entry.unsupported = true;
      recordUnsupported(entry);
      console.warn(
        `[sandbox] UNSUPPORTED ROUTE ${method} ${path} → 404 (add it to packages/sandbox, with its fidelity test)`,
      );
      return reply(404, { message: "Not Found", documentation_url: DOCS, status: "404" });
    }
    const { route, params } = matched;
    entry.route = route.template;
    entry.operationId = route.operationId;
    entry.contentCreating = route.contentCreating === true;
    let principal: Principal = { kind: "anonymous" };
    let limitHeaders: Record<string, string> = {};
    try {
      principal = await authenticate(req.headers.authorization, store, clock);
      entry.by = principalName(principal);
      limitHeaders = rateHeaders(principal);
      const body = await readBody(req);
      entry.body = body;
      if (route.auth === "app" && principal.kind !== "app") {
        throw new HttpError(401, "A JSON web token could not be decoded");
      }
      if (route.auth === "token" && principal.kind === "anonymous") {
        throw new HttpError(401, "Requires authentication");
      }
      if (
        route.auth === "public" &&
        principal.kind === "anonymous" &&
        Number(limitHeaders["x-ratelimit-used"]) > ANONYMOUS_RATE_LIMIT
      ) {
        throw new HttpError(
          403,
          `API rate limit exceeded for ${req.socket.remoteAddress ?? "127.0.0.1"}. (But here's the good news: Authenticated requests get a higher rate limit. Check out the documentation for more details.)`,
          { headers: limitHeaders },
        );
      }
      const fault = faults.take(method, route.template, route.operationId);
      if (fault?.latencyMs) await new Promise((r) => setTimeout(r, fault.latencyMs));
      if (fault?.status && !fault.afterCommit) {
        const headers: Record<string, string> =
          fault.retryAfter !== undefined ? { "retry-after": String(fault.retryAfter) } : {};
        if (fault.status === 429 || fault.status === 403) {
          if (fault.retryAfter === undefined) headers["x-ratelimit-remaining"] = "0";
          throw new HttpError(
            fault.status,
            fault.status === 403 ? SECONDARY_LIMIT_MESSAGE : "API rate limit exceeded",
            { headers },
          );
        }
        throw new HttpError(
          fault.status,
          fault.status === 500 ? "Server Error" : "Service Unavailable",
          { headers },
        );
      }
      if (route.contentCreating) {
        const key =
          principal.kind === "installation"
            ? `installation:${principal.installation.id}`
            : principal.kind === "user" || principal.kind === "job"
              ? `user:${principal.user.id}`
              : "anonymous";
        const retryAfter = faults.contentCreation(key);
        if (retryAfter !== null) {
          throw new HttpError(403, SECONDARY_LIMIT_MESSAGE, {
            headers: { "retry-after": String(retryAfter) },
            documentationUrl:
              "https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits",
          });
        }
      }
      const out = await route.handle({
        method: method as Method,
        params,
        query: url.searchParams,
        body,
        headers: req.headers,
        principal,
      });
      if (fault?.status && fault.afterCommit) {
        // The write happened; the caller only never hears so (a gateway timeout after commit).
        throw new HttpError(fault.status, "Server Error");
      }
      const headers: Record<string, string> = { ...limitHeaders, ...out.headers };
      if (method === "GET" && out.status === 200 && out.body !== undefined && !headers.etag) {
        headers.etag = answerEtag(out.body);
        if (matchesEtag(req.headers["if-none-match"], headers.etag)) {
          return reply(304, undefined, headers);
        }
      }
      return reply(out.status, out.body, headers);
    } catch (error) {
      if (error instanceof HttpError)
        return reply(error.status, error.body(), { ...limitHeaders, ...error.extra.headers });
      console.error("[sandbox] route failed", method, path, error);
      return reply(500, { message: "Server Error", documentation_url: DOCS, status: "500" });
    }
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error) => {
      console.error("[sandbox] request failed", error);
      if (!res.headersSent) send(res, 500, { message: "Server Error" }, {});
    });
  });
  // Longer than clients' idle timeouts, so the server never closes a kept-alive socket a client
  // is about to reuse (an ECONNRESET race when a test blocks the loop for a few seconds).
  server.keepAliveTimeout = 65_000;
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve(server));
  });
}

/**
 * GitHub's answers to GETs carry an `ETag` of the representation; `If-None-Match` with it
 * answers 304 with no body while nothing changed. Routes with a validator of their own set it.
 */
function answerEtag(body: unknown): string {
  return `W/"${createHash("sha1").update(JSON.stringify(body)).digest("hex")}"`;
}

function matchesEtag(header: string | string[] | undefined, etag: string): boolean {
  const strip = (t: string) => t.trim().replace(/^W\//, "");
  const tags = (Array.isArray(header) ? header.join(",") : (header ?? "")).split(",");
  return tags.some((t) => strip(t) === "*" || strip(t) === strip(etag));
}

function principalName(p: Principal): string | null {
  switch (p.kind) {
    case "anonymous":
      return null;
    case "app":
      return `app:${p.app.slug}`;
    case "installation":
      return `installation:${p.installation.id}`;
    case "user":
    case "job":
      return `${p.kind}:${p.user.login}`;
  }
}
