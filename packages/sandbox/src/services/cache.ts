import type { IncomingMessage } from "node:http";
import { cacheAllows, type RuntimeTokens } from "../runner/runtime-tokens.ts";
import { bytes, type ServiceReply } from "./reply.ts";

interface Entry {
  id: number;
  repoId: number;
  key: string;
  version: string;
  parts: Array<{ start: number; data: Buffer }>;
  done: boolean;
}

const PREFIX = "/_apis/artifactcache/";

/**
 * The Actions cache service at ACTIONS_CACHE_URL, as @actions/cache's HTTP client speaks it:
 * `GET cache?keys=&version=` (200 with `archiveLocation`, or 204 on a miss), `POST caches`
 * (reserve), `PATCH caches/{id}` (a chunk), `POST caches/{id}` (commit). Authenticated by the
 * job's ACTIONS_RUNTIME_TOKEN, scoped to its repository, and enforcing the job's `cache-mode`
 * as the service does: no restore without read access, no save without write access (403).
 */
export class CacheService {
  private readonly entries = new Map<number, Entry>();
  private nextId = 1;

  constructor(
    private readonly tokens: RuntimeTokens,
    private readonly url: () => string,
  ) {}

  handles(path: string): boolean {
    return path.startsWith(PREFIX);
  }

  async handle(req: IncomingMessage, path: string, query: URLSearchParams): Promise<ServiceReply> {
    const rest = path.slice(PREFIX.length);
    const method = req.method ?? "GET";
    const archive = /^archive\/(\d+)$/.exec(rest);
    if (method === "GET" && archive) {
      // A signed download URL: no runtime token, as with the storage URLs GitHub hands out.
      const entry = this.entries.get(Number(archive[1]));
      if (!entry?.done) return { status: 404, body: { message: "Not Found" } };
      return {
        status: 200,
        raw: Buffer.concat([...entry.parts].sort((a, b) => a.start - b.start).map((p) => p.data)),
      };
    }
    const grant = this.tokens.fromHeader(req.headers.authorization);
    if (!grant)
      return {
        status: 401,
        body: { message: "Unauthorized: a job's ACTIONS_RUNTIME_TOKEN is required" },
      };
    const refuse = (what: string) => ({
      status: 403,
      body: {
        message: `This job's cache-mode is "${grant.cacheMode}": it does not allow cache ${what}.`,
      },
    });
    if (method === "GET" && rest === "cache") {
      if (!cacheAllows(grant.cacheMode, "restore")) return refuse("restores");
      const version = query.get("version") ?? "";
      for (const key of (query.get("keys") ?? "").split(",").filter(Boolean)) {
        const hit = [...this.entries.values()]
          .filter((e) => e.done && e.repoId === grant.repoId && e.version === version)
          .reverse()
          .find((e) => e.key === key || e.key.startsWith(key));
        if (hit)
          return {
            status: 200,
            body: {
              cacheKey: hit.key,
              scope: "refs/heads/main",
              archiveLocation: `${this.url()}${PREFIX}archive/${hit.id}`,
            },
          };
      }
      return { status: 204 };
    }
    if (!cacheAllows(grant.cacheMode, "save")) return refuse("saves");
    if (method === "POST" && rest === "caches") {
      const body = JSON.parse((await bytes(req)).toString("utf8") || "{}") as Record<
        string,
        unknown
      >;
      const key = typeof body.key === "string" ? body.key : "";
      const version = typeof body.version === "string" ? body.version : "";
      const taken = [...this.entries.values()].some(
        (e) => e.repoId === grant.repoId && e.key === key && e.version === version,
      );
      if (!key || taken)
        return {
          status: 409,
          body: {
            message: `Cache already exists. Scope: refs/heads/main, Key: ${key}, Version: ${version}`,
          },
        };
      const id = this.nextId++;
      this.entries.set(id, { id, repoId: grant.repoId, key, version, parts: [], done: false });
      return { status: 201, body: { cacheId: id } };
    }
    const one = /^caches\/(\d+)$/.exec(rest);
    const entry = one ? this.entries.get(Number(one[1])) : undefined;
    if (!entry || entry.repoId !== grant.repoId)
      return { status: 404, body: { message: "Not Found" } };
    if (method === "PATCH") {
      // Chunks arrive in parallel; Content-Range says where each belongs.
      const range = /bytes\s+(\d+)-/.exec(String(req.headers["content-range"] ?? ""));
      entry.parts.push({ start: Number(range?.[1] ?? 0), data: await bytes(req) });
      return { status: 204 };
    }
    if (method === "POST") {
      await bytes(req);
      entry.done = true;
      return { status: 204 };
    }
    return { status: 405, body: { message: "Method Not Allowed" } };
  }
}
