import { createHash } from "node:crypto";
import { requireRepoAccess } from "../auth.ts";
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

function gitBlobSha(text: string): string {
  const bytes = Buffer.from(text, "utf8");
  return createHash("sha1").update(`blob ${bytes.length}\0`).update(bytes).digest("hex");
}

/** GitHub wraps base64 content at 60 characters with `\n`. */
function base64Lines(text: string): string {
  const b64 = Buffer.from(text, "utf8").toString("base64");
  return `${b64.replace(/(.{60})/g, "$1\n")}\n`;
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
        return ok(render.repo(repo));
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
        const ref = req.query.get("ref") ?? repo.defaultBranch;
        const branch = repo.files.has(ref)
          ? ref
          : [...repo.branches.entries()].find(([, sha]) => sha === ref)?.[0];
        if (!branch) throw new HttpError(404, `No commit found for the ref ${ref}`);
        const path = (req.params.path ?? "").replace(/^\/+|\/+$/g, "");
        const files = repo.files.get(branch) ?? new Map<string, string>();
        const text = files.get(path);
        const url = `${render.repoUrl(repo)}/contents/${path}?ref=${encodeURIComponent(ref)}`;
        if (text !== undefined) {
          const sha = gitBlobSha(text);
          const html = `${render.repoHtml(repo)}/blob/${branch}/${path}`;
          const git = `${render.repoUrl(repo)}/git/blobs/${sha}`;
          return ok({
            type: "file",
            encoding: "base64",
            size: Buffer.byteLength(text),
            name: path.split("/").pop() ?? path,
            path,
            content: base64Lines(text),
            sha,
            url,
            git_url: git,
            html_url: html,
            download_url: `${render.web}/raw/${store.fullName(repo)}/${branch}/${path}`,
            _links: { self: url, git, html },
          });
        }
        const prefix = `${path}/`;
        const children = new Map<string, "file" | "dir">();
        for (const file of files.keys()) {
          if (path !== "" && !file.startsWith(prefix)) continue;
          const rest = path === "" ? file : file.slice(prefix.length);
          const [head, ...tail] = rest.split("/");
          if (head) children.set(head, tail.length > 0 ? "dir" : "file");
        }
        if (children.size === 0) throw notFound();
        return ok(
          [...children.entries()].map(([name, type]) => {
            const childPath = path === "" ? name : `${path}/${name}`;
            const text = files.get(childPath) ?? "";
            const sha = type === "file" ? gitBlobSha(text) : gitBlobSha(`tree:${childPath}`);
            const childUrl = `${render.repoUrl(repo)}/contents/${childPath}?ref=${encodeURIComponent(ref)}`;
            const html = `${render.repoHtml(repo)}/${type === "file" ? "blob" : "tree"}/${branch}/${childPath}`;
            const git = `${render.repoUrl(repo)}/git/${type === "file" ? "blobs" : "trees"}/${sha}`;
            return {
              type,
              size: type === "file" ? Buffer.byteLength(text) : 0,
              name,
              path: childPath,
              sha,
              url: childUrl,
              git_url: git,
              html_url: html,
              download_url:
                type === "file"
                  ? `${render.web}/raw/${store.fullName(repo)}/${branch}/${childPath}`
                  : null,
              _links: { self: childUrl, git, html },
            };
          }),
        );
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
