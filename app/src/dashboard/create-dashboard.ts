/**
 * The dashboard under /loopx: server-rendered pages and read-only JSON under /loopx/api.
 * Off unless configured. In "readonly" (a real deployment) every request needs a signed-in
 * person; in "demo" (loopback only) gates get buttons that comment as the demo's owner.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Store } from "@loopx/store";
import type { Logger } from "../deps.ts";
import { goalJson, goalsJson } from "./dashboard-api.ts";
import { type CanSee, everyone, readGoal, readOverview } from "./dashboard-data.ts";
import {
  type Commenter,
  type DemoOwner,
  GateDecisionForm,
  newCsrfToken,
  noticeText,
  postDecision,
  readForm,
  sameToken,
  userCommenter,
} from "./demo-actions.ts";
import { demoRefusal } from "./demo-origin.ts";
import { html, type SafeHtml } from "./escape-html.ts";
import { renderGoal } from "./render-goal.ts";
import { page } from "./render-layout.ts";
import { renderOverview } from "./render-overview.ts";
import { AUTH_PATH, type SignIn } from "./sign-in.ts";

export type DashboardMode = "off" | "demo" | "readonly";

export interface DashboardDeps {
  store: Store;
  log: Logger;
  /** GitHub's web root, for links to the goal issues (acting stays on GitHub). */
  serverUrl: string;
}

export interface DashboardOptions {
  mode: DashboardMode;
  /** Demo only: the person the approve/reject buttons comment as. Without it, no buttons. */
  demoOwner?: DemoOwner;
  /** Test hook: how the demo's comment is posted (default: the owner's user token). */
  commenter?: Commenter;
  /**
   * Readonly only: GitHub App user sign-in (see sign-in.ts). Without it (and without
   * `session`) nobody is signed in, and every page answers 401 saying what is needed.
   */
  signIn?: SignIn;
  /** Readonly test hook: who is signed in (null: nobody); `signIn` replaces it. */
  session?: (req: IncomingMessage) => Promise<Viewer | null>;
}

export interface Viewer {
  login: string;
  /** Whether this person can read `owner/repo` on GitHub; goals elsewhere stay hidden. */
  canRead(repo: string): Promise<boolean>;
}

export const DASHBOARD_PATH = "/loopx";

function send(res: ServerResponse, status: number, type: string, body: string): void {
  res.writeHead(status, {
    "content-type": type,
    "cache-control": "no-store",
    // The pages carry our own inline CSS/JS only; nothing may load from elsewhere.
    "content-security-policy":
      "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src 'self'; form-action 'self'; frame-ancestors 'none'",
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

export function createDashboard(
  deps: DashboardDeps,
  options: DashboardOptions,
): (req: IncomingMessage, res: ServerResponse) => Promise<boolean> {
  const { store, log } = deps;
  const csrf = newCsrfToken();
  const commenter =
    options.mode === "demo"
      ? (options.commenter ?? (options.demoOwner ? userCommenter(options.demoOwner) : null))
      : null;
  const buttons = commenter ? { csrf } : null;
  const signIn = options.mode === "readonly" ? (options.signIn ?? null) : null;
  const session = signIn?.session ?? options.session ?? (async () => null);

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
    if (req.method === "POST" && path === `${DASHBOARD_PATH}/gates`) {
      await decideGate(req, res);
      return;
    }
    if (req.method !== "GET") {
      sendJson(res, 405, {
        error: "The dashboard is read-only: only GET (and, in the demo, gate buttons).",
      });
      return;
    }
    if (path === DASHBOARD_PATH) {
      const notice = noticeText(url.searchParams, commenter);
      const overview = await readOverview(store, canSee);
      sendHtml(res, 200, renderOverview(overview, buttons, notice, viewer?.login ?? null));
      return;
    }
    const goalPage = /^\/loopx\/goals\/([0-9a-f-]{36})$/.exec(path);
    if (goalPage?.[1]) {
      const detail = await readGoal(store, goalPage[1], canSee);
      if (!detail) sendHtml(res, 404, page("Not found", html`<p>There is no such goal.</p>`));
      else sendHtml(res, 200, renderGoal(detail, buttons, deps.serverUrl, viewer?.login ?? null));
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

  async function decideGate(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!commenter) {
      sendJson(res, 403, {
        error: "Gate buttons exist only in the loopback demo; approve on GitHub with a comment.",
      });
      return;
    }
    const form = GateDecisionForm.safeParse(await readForm(req));
    if (!form.success || !sameToken(form.data.csrf, csrf)) {
      sendHtml(
        res,
        403,
        page(
          "Refused",
          html`<p>This form is stale or did not come from this dashboard. <a href="/loopx">Reload the overview</a> and try again.</p>`,
        ),
      );
      return;
    }
    const result = await postDecision(store, commenter, form.data);
    if (!result.ok) {
      sendHtml(
        res,
        result.status,
        page("Not done", html`<p>${result.message} <a href="/loopx">Overview</a></p>`),
      );
      return;
    }
    const to = `${DASHBOARD_PATH}?${result.notice}`;
    res.writeHead(303, { location: to });
    res.end();
  }

  return async (req, res) => {
    if (options.mode === "off") return false;
    const url = new URL(req.url ?? "/", "http://localhost");
    if (url.pathname !== DASHBOARD_PATH && !url.pathname.startsWith(`${DASHBOARD_PATH}/`)) {
      return false;
    }
    // The demo's buttons act as its owner: they must never be reachable from anyone else.
    const refusal = options.mode === "demo" ? demoRefusal(req) : null;
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
