/**
 * The loopback demo's dashboard extension: approve/reject buttons beside each open gate, a
 * POST route behind a per-process CSRF token, and the guard that keeps it to loopback. The
 * App's own dashboard has none of it; the demo plugs it in with `{ mode: "open" }`.
 */
import type { DashboardExtension, SafeHtml } from "@loopx/app";
import { html } from "@loopx/app";
import type { Store } from "@loopx/store";
import {
  type Commenter,
  type DecisionResult,
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

/** The route the buttons post to. */
export const GATES_PATH = "/loopx/gates";

export interface DemoDashboardOptions {
  store: Store;
  /** The person the buttons comment as, with their own user token. */
  owner: DemoOwner;
  /** Test hook: how the comment is posted (default: the owner's user token). */
  commenter?: Commenter;
  /** GitHub's web root (the sandbox's URL in the demo): the confirmation links the PR's files. */
  webUrl?: string;
}

function gateForm(csrf: string, goalId: string, gateKey: string): SafeHtml {
  return html`<form class="gate" method="post" action="${GATES_PATH}">
<input type="hidden" name="csrf" value="${csrf}"><input type="hidden" name="goal" value="${goalId}">
<input type="hidden" name="gate" value="${gateKey}">
<button type="submit" name="decision" value="approve" data-gate="${gateKey}">Approve ${gateKey}</button>
<button type="submit" name="decision" value="reject" data-gate="${gateKey}">Reject ${gateKey}</button></form>`;
}

/** What approving covers, and the one button that approves exactly that head. */
function confirmPage(
  csrf: string,
  c: Extract<DecisionResult, { ok: "confirm" }>,
  webUrl: string | undefined,
): SafeHtml {
  const files =
    webUrl === undefined
      ? ""
      : html` · <a href="${webUrl.replace(/\/+$/, "")}/${c.pull.repo}/pull/${c.pull.number}/files">the files</a>`;
  return html`<section class="confirm"><h2>Approve ${c.gate}?</h2><p>${c.question}</p>
<p><b>What an approval covers:</b> <span class="preview">${c.preview}</span>${files}</p>
<p class="muted">The approval covers head ${c.head} only: a push after it reopens the gate.</p>
<form class="gate" method="post" action="${GATES_PATH}">
<input type="hidden" name="csrf" value="${csrf}"><input type="hidden" name="goal" value="${c.goalId}">
<input type="hidden" name="gate" value="${c.gate}"><input type="hidden" name="head" value="${c.head}">
<button type="submit" name="decision" value="approve">Confirm: approve ${c.gate} at ${c.head.slice(0, 12)}</button>
<a href="/loopx/goals/${encodeURIComponent(c.goalId)}">Cancel</a></form></section>`;
}

export function demoDashboard(opts: DemoDashboardOptions): DashboardExtension {
  const csrf = newCsrfToken();
  const commenter = opts.commenter ?? userCommenter(opts.owner);
  return {
    // The buttons act as the owner: they must never be reachable from anyone else.
    refuse: demoRefusal,
    gateControls: (goalId, gateKey) => gateForm(csrf, goalId, gateKey),
    notice: (query) => noticeText(query, commenter),
    async handle(req, res, path, reply) {
      if (req.method !== "POST" || path !== GATES_PATH) return false;
      const form = GateDecisionForm.safeParse(await readForm(req));
      if (!form.success || !sameToken(form.data.csrf, csrf)) {
        reply.html(
          res,
          403,
          "Refused",
          html`<p>This form is stale or did not come from this dashboard. <a href="/loopx">Reload the overview</a> and try again.</p>`,
        );
        return true;
      }
      const result = await postDecision(opts.store, commenter, form.data);
      if (result.ok === "confirm") {
        reply.html(res, 200, `Approve ${result.gate}?`, confirmPage(csrf, result, opts.webUrl));
        return true;
      }
      if (!result.ok) {
        reply.html(
          res,
          result.status,
          "Not done",
          html`<p>${result.message} <a href="/loopx">Overview</a></p>`,
        );
        return true;
      }
      res.writeHead(303, { location: `/loopx?${result.notice}` });
      res.end();
      return true;
    },
  };
}
