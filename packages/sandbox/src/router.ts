import type { IncomingHttpHeaders } from "node:http";
import type { Principal } from "./auth.ts";

export type Method = "GET" | "POST" | "PATCH" | "PUT" | "DELETE";

/** What a route needs to see of the request. */
export interface RouteRequest {
  method: Method;
  params: Record<string, string>;
  query: URLSearchParams;
  body: unknown;
  headers: IncomingHttpHeaders;
  principal: Principal;
}

export interface RouteReply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface Route {
  method: Method;
  /** GitHub's path template, e.g. `/repos/{owner}/{repo}/issues/{issue_number}`. */
  template: string;
  /** The OpenAPI operationId; the fidelity tests validate responses against its schemas. */
  operationId: string;
  /**
   * Who may call it: an app JWT, an installation/user token, a token or no one at all (a
   * public repository's data, read anonymously within GitHub's unauthenticated limit), or
   * anyone.
   */
  auth: "app" | "token" | "public" | "none";
  /** Counts towards the content-creation secondary limit (80/min, 500/h). */
  contentCreating?: boolean;
  handle(req: RouteRequest): Promise<RouteReply> | RouteReply;
}

interface Compiled {
  route: Route;
  regex: RegExp;
  names: string[];
}

export class Router {
  private readonly compiled: Compiled[] = [];

  add(...routes: Route[]): void {
    for (const route of routes) {
      const names: string[] = [];
      const pattern = route.template
        .replace(/[.*+?^$()|[\]\\]/g, "\\$&")
        .replace(/\{([a-z_]+)\}/g, (_m, name: string) => {
          names.push(name);
          // `{path}` (contents) spans slashes, as GitHub's `{+path}` does; so may a git `{ref}`.
          return name === "path" || name === "ref" ? "(.+)" : "([^/]+)";
        });
      this.compiled.push({ route, regex: new RegExp(`^${pattern}$`), names });
    }
  }

  get routes(): readonly Route[] {
    return this.compiled.map((c) => c.route);
  }

  /** Finds the route for a method and path; `pathExists` tells a 404 from a 405-ish miss. */
  match(
    method: string,
    path: string,
  ): { route: Route; params: Record<string, string> } | undefined {
    for (const c of this.compiled) {
      if (c.route.method !== method) continue;
      const m = c.regex.exec(path);
      if (!m) continue;
      const params: Record<string, string> = {};
      c.names.forEach((name, i) => {
        params[name] = decodeURIComponent(m[i + 1] ?? "");
      });
      return { route: c.route, params };
    }
    return undefined;
  }
}
