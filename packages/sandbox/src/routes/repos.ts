import { createHash } from "node:crypto";
import { requireRepoAccess } from "../auth.ts";
import type { TreeEntry } from "../git/git.ts";
import { HttpError, notFound } from "../http-error.ts";
import type { Route } from "../router.ts";
import type { Role } from "../state/types.ts";
import { ok, type RouteContext, repoOf } from "./context.ts";

/** GitHub's legacy `permission`: maintain reads as write, triage as read. */
const LEGACY: Record<Role, string> = {
  admin: "admin",
  maintain: "write",
  write: "write",
  triage: "read",
  read: "read",
};

/** GitHub wraps base64 content at 60 characters with `\n`. */
function base64Lines(bytes: Buffer): string {
  const b64 = bytes.toString("base64");
  return `${b64.replace(/(.{60})/g, "$1\n")}\n`;
}

/**
 * A strong validator for one representation: what it names (a blob, a tree) and how it is
 * shaped (raw or JSON), so a changed file or another media type never matches.
 */
function etagOf(what: string, format: string): string {
  return `"${createHash("sha1").update(`${format}\0${what}`).digest("hex")}"`;
}

/** `If-None-Match` holding this validator (a list, weak or strong, or `*`): answer 304. */
function notModified(header: string | string[] | undefined, etag: string): boolean {
  const tags = (Array.isArray(header) ? header.join(",") : (header ?? "")).split(",");
  return tags.some((t) => {
    const tag = t.trim().replace(/^W\//, "");
    return tag === "*" || tag === etag;
  });
}

export function repoRoutes(ctx: RouteContext): Route[] {
  const { store, render } = ctx;
  return [
    {
      method: "GET",
      template: "/repos/{owner}/{repo}",
      operationId: "repos/get",
      auth: "token",
      handle: (req) => {
        const repo = repoOf(ctx, req);
        requireRepoAccess(req.principal, store, repo, "metadata", "read");
        const body = render.repo(repo);
        const etag = etagOf(JSON.stringify(body), "json");
        if (notModified(req.headers["if-none-match"], etag)) return ok(undefined, 304, { etag });
        return ok(body, 200, { etag });
      },
    },
    {
      method: "GET",
      template: "/repos/{owner}/{repo}/contents/{path}",
      operationId: "repos/get-content",
      auth: "token",
      handle: (req) => {
        const repo = repoOf(ctx, req);
        requireRepoAccess(req.principal, store, repo, "contents", "read");
        const git = store.git(repo);
        const ref = req.query.get("ref") ?? repo.defaultBranch;
        const commit = git.resolve(repo.branches.has(ref) ? `refs/heads/${ref}` : ref);
        if (!commit) throw new HttpError(404, `No commit found for the ref ${ref}`);
        const path = (req.params.path ?? "").replace(/^\/+|\/+$/g, "");
        const q = `?ref=${encodeURIComponent(ref)}`;
        const describe = (entry: TreeEntry) => {
          const type =
            entry.type === "tree" ? "dir" : entry.type === "commit" ? "submodule" : "file";
          const url = `${render.repoUrl(repo)}/contents/${entry.path}${q}`;
          const html = `${render.repoHtml(repo)}/${type === "dir" ? "tree" : "blob"}/${ref}/${entry.path}`;
          const gitUrl = `${render.repoUrl(repo)}/git/${type === "dir" ? "trees" : "blobs"}/${entry.sha}`;
          return {
            type,
            size: entry.size,
            name: entry.path.split("/").pop() ?? entry.path,
            path: entry.path,
            sha: entry.sha,
            url,
            git_url: gitUrl,
            html_url: html,
            download_url:
              type === "file"
                ? `${render.web}/raw/${store.fullName(repo)}/${ref}/${entry.path}`
                : null,
            _links: { self: url, git: gitUrl, html },
          };
        };
        const file = git.entry(commit, path);
        const raw = /application\/vnd\.github(\.v3)?\.raw/.test(String(req.headers.accept ?? ""));
        const conditional = (etag: string) =>
          notModified(req.headers["if-none-match"], etag) ? ok(undefined, 304, { etag }) : null;
        if (file && file.type === "blob") {
          const etag = etagOf(`${file.sha}:${ref}`, raw ? "raw" : "json");
          const unchanged = conditional(etag);
          if (unchanged) return unchanged;
          const bytes = git.readBlob(file.sha);
          if (raw) {
            return ok(Buffer.from(bytes).toString("utf8"), 200, {
              "content-type": "application/vnd.github.raw; charset=utf-8",
              etag,
            });
          }
          return ok({ ...describe(file), encoding: "base64", content: base64Lines(bytes) }, 200, {
            etag,
          });
        }
        const children = git.listDir(commit, path);
        if (!children) throw notFound();
        const etag = etagOf(`${commit}:${path}:${ref}`, "dir");
        return conditional(etag) ?? ok(children.map(describe), 200, { etag });
      },
    },
    {
      method: "GET",
      template: "/repos/{owner}/{repo}/collaborators/{username}/permission",
      operationId: "repos/get-collaborator-permission-level",
      auth: "token",
      handle: (req) => {
        const repo = repoOf(ctx, req);
        requireRepoAccess(req.principal, store, repo, "metadata", "read");
        const user = store.userByLogin(req.params.username ?? "");
        if (!user) throw new HttpError(404, `${req.params.username} is not a user`);
        const role = store.roleOf(repo, user.id);
        const permission = role ? LEGACY[role] : "none";
        const permissions = {
          admin: role === "admin",
          maintain: role === "admin" || role === "maintain",
          push: role === "admin" || role === "maintain" || role === "write",
          triage: role !== null && role !== "read",
          pull: role !== null,
        };
        return ok({
          permission,
          role_name: role ?? "none",
          user: { ...render.user(user), permissions, role_name: role ?? "none" },
        });
      },
    },
  ];
}
