import { z } from "zod";
import { newToken, requireRepoAccess, TOKEN_TTL_MS } from "../auth.ts";
import { HttpError, notFound } from "../http-error.ts";
import { iso } from "../render/core.ts";
import type { Route, RouteRequest } from "../router.ts";
import type { AppRecord, PermissionLevel } from "../state/types.ts";
import { intParam, ok, okPage, paginate, parseBody, type RouteContext, repoOf } from "./context.ts";

const tokenRequest = z.object({
  repositories: z.array(z.string()).optional(),
  repository_ids: z.array(z.number().int()).optional(),
  permissions: z.record(z.string(), z.enum(["read", "write", "admin"])).optional(),
});

function appOf(req: RouteRequest): AppRecord {
  if (req.principal.kind !== "app") {
    throw new HttpError(401, "A JSON web token could not be decoded");
  }
  return req.principal.app;
}

export function appRoutes(ctx: RouteContext): Route[] {
  const { store, render, clock } = ctx;
  const installationOf = (req: RouteRequest) => {
    const app = appOf(req);
    const installation = store.installations.get(intParam(req.params.installation_id));
    if (!installation || installation.appId !== app.id) throw notFound();
    return installation;
  };
  return [
    {
      method: "GET",
      template: "/app",
      operationId: "apps/get-authenticated",
      auth: "app",
      handle: (req) => ok(render.app(appOf(req))),
    },
    {
      method: "GET",
      template: "/app/installations",
      operationId: "apps/list-installations",
      auth: "app",
      handle: (req) => {
        const app = appOf(req);
        const all = [...store.installations.values()].filter((i) => i.appId === app.id);
        return okPage(all, req, `${render.api}/app/installations`, (i) => render.installation(i));
      },
    },
    {
      method: "GET",
      template: "/app/installations/{installation_id}",
      operationId: "apps/get-installation",
      auth: "app",
      handle: (req) => ok(render.installation(installationOf(req))),
    },
    {
      method: "POST",
      template: "/app/installations/{installation_id}/access_tokens",
      operationId: "apps/create-installation-access-token",
      auth: "app",
      handle: (req) => {
        const installation = installationOf(req);
        const body = parseBody(tokenRequest, req.body);
        let repositoryIds: number[] | null = null;
        if (body.repositories || body.repository_ids) {
          repositoryIds = [...(body.repository_ids ?? [])];
          for (const name of body.repositories ?? []) {
            const account = store.user(installation.accountId).login;
            repositoryIds.push(store.repoByName(account, name).id);
          }
          if (repositoryIds.some((id) => !installation.repositoryIds.includes(id))) {
            throw new HttpError(
              422,
              "There is at least one repository that does not exist or is not accessible to the parent installation.",
            );
          }
        }
        const permissions: Record<string, PermissionLevel> = { ...installation.permissions };
        if (body.permissions) {
          for (const [name, level] of Object.entries(body.permissions)) {
            const held = installation.permissions[name];
            const rank = { read: 1, write: 2, admin: 3 };
            if (!held || rank[held] < rank[level]) {
              throw new HttpError(
                422,
                `The permissions requested are not granted to this installation.`,
              );
            }
          }
          for (const key of Object.keys(permissions)) {
            const asked = body.permissions[key];
            if (asked) permissions[key] = asked;
            else delete permissions[key];
          }
          permissions.metadata = "read";
        }
        const token = newToken("ghs");
        const expiresAt = clock.now() + TOKEN_TTL_MS;
        store.tokens.set(token, {
          token,
          kind: "installation",
          installationId: installation.id,
          userId: store.apps.get(installation.appId)?.botUserId ?? 0,
          expiresAt,
          permissions,
          repositoryIds,
        });
        const out: Record<string, unknown> = {
          token,
          expires_at: iso(expiresAt),
          permissions,
          repository_selection: "selected",
        };
        if (repositoryIds)
          out.repositories = repositoryIds.map((id) => render.repo(store.repo(id)));
        return ok(out, 201);
      },
    },
    {
      method: "GET",
      template: "/repos/{owner}/{repo}/installation",
      operationId: "apps/get-repo-installation",
      auth: "app",
      handle: (req) => {
        const app = appOf(req);
        const repo = repoOf(ctx, req);
        const installation = [...store.installations.values()].find(
          (i) => i.appId === app.id && i.repositoryIds.includes(repo.id),
        );
        if (!installation) throw notFound();
        return ok(render.installation(installation));
      },
    },
    {
      method: "GET",
      template: "/installation/repositories",
      operationId: "apps/list-repos-accessible-to-installation",
      auth: "token",
      handle: (req) => {
        if (req.principal.kind !== "installation")
          throw new HttpError(403, "This endpoint requires an installation token");
        const scope = req.principal.token.repositoryIds ?? req.principal.installation.repositoryIds;
        const repos = scope.map((id) => store.repo(id));
        for (const repo of repos) requireRepoAccess(req.principal, store, repo, "metadata", "read");
        const { page, headers } = paginate(repos, req, `${render.api}/installation/repositories`);
        return ok(
          {
            total_count: repos.length,
            repository_selection: "selected",
            repositories: page.map((r) => render.repo(r)),
          },
          200,
          headers,
        );
      },
    },
    {
      method: "DELETE",
      template: "/installation/token",
      operationId: "apps/revoke-installation-access-token",
      auth: "token",
      handle: (req) => {
        if (req.principal.kind !== "installation")
          throw new HttpError(403, "This endpoint requires an installation token");
        // Revoked at once: the next request with it is a 401.
        store.tokens.delete(req.principal.token.token);
        return { status: 204 };
      },
    },
  ];
}
