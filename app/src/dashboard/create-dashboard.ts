/**
 * The dashboard under /loopx: server-rendered pages and read-only JSON under /loopx/api.
 * Off unless configured. In "readonly" (a real deployment) every request needs a signed-in
 * person. "open" (no sign-in) exists only for a host that guards the dashboard itself
 * through its extension: the loopback demo, whose gate buttons comment as its owner.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Store } from "@loopx/store";
import type { Logger } from "../deps.ts";
import { goalJson, goalsJson } from "./dashboard-api.ts";
import { type CanSee, everyone, readGoal, readOverview } from "./dashboard-data.ts";
import type { DashboardExtension, DashboardReply } from "./dashboard-extension.ts";
import { html, type SafeHtml } from "./escape-html.ts";
import { streamGoalChanges, streamOverviewChanges } from "./live-updates.ts";
import { renderGoal } from "./render-goal.ts";
import { page } from "./render-layout.ts";
import { renderOverview } from "./render-overview.ts";
import { AUTH_PATH, type SignIn, type Viewer } from "./sign-in.ts";

export type DashboardMode = DashboardOptions["mode"];

export interface DashboardDeps {
  store: Store;
  log: Logger;
  /** GitHub's web root, for links to the goal issues (acting stays on GitHub). */
  serverUrl: string;
}

export type DashboardOptions =
  | { mode: "off" }
  | {
      mode: "readonly";
      /**
       * GitHub App user sign-in (see sign-in.ts). Without it (and without `session`) nobody
       * is signed in, and every page answers 401 saying what is needed.
       */
      signIn?: SignIn;
      /** Test hook: who is signed in (null: nobody); `signIn` replaces it. */
      session?: (req: IncomingMessage) => Promise<Viewer | null>;
      /** Where people reach it (LOOPX_PUBLIC_URL): each goal's checklist links its page. */
      publicUrl?: string;
    }
  | {
      mode: "open";
      /** No sign-in: the extension refuses whoever must not see it (the demo: loopback only). */
      extension: DashboardExtension;
    };

export const DASHBOARD_PATH = "/loopx";

function send(res: ServerResponse, status: number, type: string, body: string): void {
  res.writeHead(status, {
    "content-type": type,
    "cache-control": "no-store",
    // The pages carry our own inline CSS/JS only; nothing may load from elsewhere.
    "content-security-policy":
      "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'",
    "x-content-type-options": "nosniff",
  });
  res.end(body);
}
const sendHtml = (res: ServerResponse, status: number, body: SafeHtml) =>
  send(res, status, "text/html; charset=utf-8", body.value);
const sendJson = (res: ServerResponse, status: number, body: unknown) =>
  send(res, status, "application/json", JSON.stringify(body));

const SIGN_IN_NEEDED =
  "The LoopX dashboard is read-only here and needs you to sign in with GitHub (GitHub App user OAuth), so that it shows only goals in repositories you can read. Sign-in is not configured in this deployment: the operator sets GITHUB_CLIENT_ID, GITHUB_CLIENT_SECRET, LOOPX_SESSION_SECRET and LOOPX_PUBLIC_URL (or LOOPX_DASHBOARD=off); meanwhile act on the goal issues on GitHub (comments and reviews).";

const reply: DashboardReply = {
  html: (res, status, title, body) => sendHtml(res, status, page(title, body)),
  json: sendJson,
};

export function createDashboard(
  deps: DashboardDeps,
  options: DashboardOptions,
): (req: IncomingMessage, res: ServerResponse) => Promise<boolean> {
  const { store, log } = deps;
  const extension = options.mode === "open" ? options.extension : null;
  const controls = extension ? extension.gateControls.bind(extension) : null;
  const signIn = options.mode === "readonly" ? (options.signIn ?? null) : null;
  const session =
    signIn?.session ?? (options.mode === "readonly" ? options.session : null) ?? (async () => null);

  async function route(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const path = url.pathname.replace(/\/+$/, "") || "/";
    const api = path.startsWith(`${DASHBOARD_PATH}/api/`);
    if (signIn && (await signIn.handle(req, res, path, url))) return;
    const viewer = options.mode === "readonly" ? await session(req) : null;
    const canSee: CanSee = viewer ? (repo) => viewer.canRead(repo) : everyone;
    if (signIn && path === `${DASHBOARD_PATH}/api/auth`) {
      sendJson(res, 200, { ...signIn.describe(), login: viewer?.login ?? null });
      return;
    }
    if (options.mode === "readonly" && !viewer) {
      if (signIn) signIn.refuse(req, res, url, api || path.startsWith(AUTH_PATH));
      else if (api) sendJson(res, 401, { error: SIGN_IN_NEEDED });
      else
        sendHtml(
          res,
          401,
          page("Sign-in needed", html`<section><p>${SIGN_IN_NEEDED}</p></section>`),
        );
      return;
    }
    if (extension && (await extension.handle(req, res, path, reply))) return;
    if (req.method !== "GET") {
      sendJson(res, 405, {
        error:
          "The dashboard is read-only: only GET. Decide a gate on GitHub: comment `/loopx approve G1` (or reject) on the goal issue.",
      });
      return;
    }
    if (path === DASHBOARD_PATH) {
      const notice = extension ? extension.notice(url.searchParams) : "";
      const overview = await readOverview(store, canSee);
      sendHtml(
        res,
        200,
        renderOverview(overview, controls, notice, viewer?.login ?? null, deps.serverUrl),
      );
      return;
    }
    if (path === `${DASHBOARD_PATH}/live`) {
      await streamOverviewChanges(req, res, store, canSee);
      return;
    }
    const live = /^\/loopx\/goals\/([0-9a-f-]{36})\/live$/.exec(path);
    if (live?.[1]) {
      const stamp = await store.goalVersion(live[1]);
      // A goal the person may not see answers exactly like one that does not exist.
      if (stamp === null || !(await canSee(stamp.repo))) {
        sendJson(res, 404, { error: "There is no such goal." });
      } else streamGoalChanges(req, res, store, live[1], stamp.version);
      return;
    }
    const goalPage = /^\/loopx\/goals\/([0-9a-f-]{36})$/.exec(path);
    if (goalPage?.[1]) {
      const detail = await readGoal(store, goalPage[1], canSee);
      if (!detail) sendHtml(res, 404, page("Not found", html`<p>There is no such goal.</p>`));
      else sendHtml(res, 200, renderGoal(detail, controls, deps.serverUrl, viewer?.login ?? null));
      return;
    }
    if (path === `${DASHBOARD_PATH}/api/goals`) {
      sendJson(res, 200, await goalsJson(store, canSee));
      return;
    }
    const oneGoal = /^\/loopx\/api\/goals\/([^/]+)\/([^/]+)\/(\d+)$/.exec(path);
    if (oneGoal?.[1] && oneGoal[2] && oneGoal[3]) {
      const body = await goalJson(
        store,
        {
          owner: decodeURIComponent(oneGoal[1]),
          repo: decodeURIComponent(oneGoal[2]),
          number: Number(oneGoal[3]),
        },
        canSee,
      );
      if (body) sendJson(res, 200, body);
      else sendJson(res, 404, { error: `No goal on ${oneGoal[1]}/${oneGoal[2]}#${oneGoal[3]}.` });
      return;
    }
    if (api) sendJson(res, 404, { error: "No such API path." });
    else
      sendHtml(
        res,
        404,
        page("Not found", html`<p>No such page. <a href="/loopx">Overview</a></p>`),
      );
  }

  return async (req, res) => {
    if (options.mode === "off") return false;
    const url = new URL(req.url ?? "/", "http://localhost");
    if (url.pathname !== DASHBOARD_PATH && !url.pathname.startsWith(`${DASHBOARD_PATH}/`)) {
      return false;
    }
    const refusal = extension ? extension.refuse(req) : null;
    if (refusal !== null) {
      sendJson(res, 403, { error: refusal });
      return true;
    }
    try {
      await route(req, res, url);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      log.error(`dashboard: ${req.method} ${url.pathname} failed: ${message}`);
      if (!res.headersSent)
        sendJson(res, 500, { error: "The dashboard failed; see the app's log." });
    }
    return true;
  };
}
