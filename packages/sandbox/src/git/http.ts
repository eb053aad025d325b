import { spawn } from "node:child_process";
import type { IncomingMessage, ServerResponse } from "node:http";
import { dirname, relative } from "node:path";
import { authenticate, type Principal, requireRepoAccess } from "../auth.ts";
import type { Clock } from "../clock.ts";
import { HttpError } from "../http-error.ts";
import type { Store } from "../state/store.ts";
import type { Repo } from "../state/types.ts";
import { GIT_ENV } from "./git.ts";
import { needsWorkflowsGuard, workflowGuardHooks } from "./workflow-guard.ts";

export interface GitHttpDeps {
  store: Store;
  clock: Clock;
  /** Called after a receive-pack finished, with the refs before it (the sandbox diffs them). */
  pushed(repo: Repo, before: Map<string, string>, principal: Principal): void;
}

/** `/<owner>/<repo>.git/<rest>`: github.com's clone URL layout. */
const GIT_PATH = /^\/([^/]+)\/([^/]+?)\.git(\/.*)?$/;

export function isGitPath(path: string): boolean {
  return GIT_PATH.test(path);
}

function plain(
  res: ServerResponse,
  status: number,
  text: string,
  headers: Record<string, string> = {},
) {
  res.writeHead(status, { "content-type": "text/plain; charset=utf-8", ...headers });
  res.end(`${text}\n`);
}

/** Git's `Basic base64(user:token)` → the token (GitHub accepts it as password or username). */
function tokenOf(header: string | undefined): string | null {
  const m = /^basic\s+(\S+)$/i.exec(header?.trim() ?? "");
  if (!m?.[1]) return null;
  const [user = "", ...rest] = Buffer.from(m[1], "base64").toString("utf8").split(":");
  const pass = rest.join(":");
  return pass || user || null;
}

// One receive-pack at a time per repository, so each push's ref diff is its own.
const locks = new Map<number, Promise<void>>();

/**
 * Serves git's smart HTTP protocol through `git http-backend` (CGI), with GitHub's auth:
 * HTTP Basic with a token; fetches need contents:read, pushes contents:write on a token that
 * covers the repository. Pushes are observed by diffing the refs around the receive-pack.
 */
export async function serveGit(
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  query: string,
  deps: GitHttpDeps,
): Promise<void> {
  const m = GIT_PATH.exec(path);
  if (!m) return plain(res, 404, "Not Found");
  const rest = m[3] ?? "/";
  const service = new URLSearchParams(query).get("service") ?? rest.replace(/^\//, "");
  const write = service === "git-receive-pack";
  const challenge = { "www-authenticate": 'Basic realm="GitHub"' };
  const token = tokenOf(req.headers.authorization);
  // Every sandbox repository is treated like a private one: credentials first, existence second.
  if (!token) return plain(res, 401, "Authentication required", challenge);
  let principal: Principal;
  try {
    principal = await authenticate(`token ${token}`, deps.store, deps.clock);
  } catch {
    return plain(res, 401, "Invalid username or token.", challenge);
  }
  let repo: Repo;
  try {
    repo = deps.store.repoByName(m[1] ?? "", m[2] ?? "");
  } catch {
    return plain(res, 404, "Repository not found.");
  }
  const full = `${deps.store.fullName(repo)}.git`;
  try {
    requireRepoAccess(principal, deps.store, repo, "contents", write ? "write" : "read");
  } catch (error) {
    const status = error instanceof HttpError ? error.status : 403;
    const who =
      principal.kind === "anonymous" || principal.kind === "app"
        ? "anonymous"
        : principal.user.login;
    // A repository the token cannot see is "not found" to read, and a refused push to write.
    if (status === 404 && !write) return plain(res, 404, "Repository not found.");
    return plain(res, 403, `Permission to ${full} denied to ${who}.`);
  }
  if (!write) return cgi(req, res, repo, rest, query, principal);
  const previous = locks.get(repo.id) ?? Promise.resolve();
  let release = () => {};
  const mine = new Promise<void>((resolve) => {
    release = resolve;
  });
  locks.set(
    repo.id,
    previous.then(() => mine),
  );
  await previous;
  try {
    const before = deps.store.git(repo).branches();
    await cgi(req, res, repo, rest, query, principal);
    deps.pushed(repo, before, principal);
  } finally {
    release();
  }
}

function cgi(
  req: IncomingMessage,
  res: ServerResponse,
  repo: Repo,
  rest: string,
  query: string,
  principal: Principal,
): Promise<void> {
  const projectRoot = dirname(dirname(repo.gitDir));
  const header = (name: string) => {
    const v = req.headers[name];
    return Array.isArray(v) ? v.join(", ") : (v ?? "");
  };
  const env: NodeJS.ProcessEnv = {
    ...GIT_ENV,
    GIT_PROJECT_ROOT: projectRoot,
    GIT_HTTP_EXPORT_ALL: "1",
    PATH_INFO: `/${relative(projectRoot, repo.gitDir)}${rest}`,
    REQUEST_METHOD: req.method ?? "GET",
    QUERY_STRING: query,
    CONTENT_TYPE: header("content-type"),
    REMOTE_USER:
      principal.kind === "anonymous" || principal.kind === "app" ? "" : principal.user.login,
    REMOTE_ADDR: req.socket.remoteAddress ?? "127.0.0.1",
    GIT_PROTOCOL: header("git-protocol"),
    HTTP_CONTENT_ENCODING: header("content-encoding"),
  };
  if (req.headers["content-length"]) env.CONTENT_LENGTH = header("content-length");
  if (rest.endsWith("git-receive-pack") && needsWorkflowsGuard(principal)) {
    // Only for this push: the hook that refuses workflow changes without `workflows`.
    env.GIT_CONFIG_COUNT = "1";
    env.GIT_CONFIG_KEY_0 = "core.hooksPath";
    env.GIT_CONFIG_VALUE_0 = workflowGuardHooks(dirname(projectRoot));
  }
  return new Promise((resolve) => {
    const child = spawn("git", ["http-backend"], { env, stdio: ["pipe", "pipe", "pipe"] });
    req.pipe(child.stdin);
    child.stdin.on("error", () => {});
    let head = Buffer.alloc(0);
    let streaming = false;
    child.stdout.on("data", (chunk: Buffer) => {
      if (streaming) {
        res.write(chunk);
        return;
      }
      head = Buffer.concat([head, chunk]);
      const crlf = head.indexOf("\r\n\r\n");
      const lf = head.indexOf("\n\n");
      const end = crlf >= 0 && (lf < 0 || crlf < lf) ? crlf : lf;
      if (end < 0) return;
      const sep = end === crlf ? 4 : 2;
      const headers: Record<string, string> = {};
      let status = 200;
      for (const line of head.subarray(0, end).toString("utf8").split(/\r?\n/)) {
        const i = line.indexOf(":");
        if (i < 0) continue;
        const name = line.slice(0, i).trim().toLowerCase();
        const value = line.slice(i + 1).trim();
        if (name === "status") status = Number.parseInt(value, 10) || 200;
        else headers[name] = value;
      }
      res.writeHead(status, headers);
      streaming = true;
      res.write(head.subarray(end + sep));
    });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
    });
    child.on("close", (code) => {
      if (!streaming) {
        console.warn(`[sandbox] git http-backend failed (${code}): ${stderr.trim()}`);
        if (!res.headersSent) plain(res, 500, "git http-backend failed");
      } else res.end();
      resolve();
    });
  });
}
