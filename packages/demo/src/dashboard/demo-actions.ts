/**
 * The loopback demo's approve/reject buttons. A click posts the very comment a person would
 * (`/loopx approve G2`) on the goal issue, as the demo's owner with their own user token, so
 * the decision arrives as a webhook and passes the same authority checks as any comment —
 * the dashboard itself never changes a goal.
 */
import { randomBytes, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { gatePreview, gatePreviewWords, sameSha } from "@loopx/core";
import type { Store } from "@loopx/store";
import { Octokit } from "@octokit/rest";
import { z } from "zod";

/** Who the demo's buttons act as: a person's login and a user token the GitHub API honours. */
export interface DemoOwner {
  login: string;
  token: string;
  /** REST API root (the sandbox's URL in the demo). */
  apiUrl: string;
}

export interface Commenter {
  login: string;
  comment(repo: { owner: string; repo: string }, issueNumber: number, body: string): Promise<void>;
}

export function userCommenter(owner: DemoOwner): Commenter {
  const octokit = new Octokit({
    baseUrl: owner.apiUrl,
    auth: owner.token,
    request: { retries: 0 },
  });
  return {
    login: owner.login,
    async comment(repo, issueNumber, body) {
      await octokit.rest.issues.createComment({ ...repo, issue_number: issueNumber, body });
    },
  };
}

export const newCsrfToken = (): string => randomBytes(24).toString("base64url");

export function sameToken(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export const GateDecisionForm = z.object({
  csrf: z.string().min(1),
  goal: z.uuid(),
  gate: z.string().regex(/^G\d{1,6}$/),
  decision: z.enum(["approve", "reject"]),
  /** The head the person confirmed approving, from the preview they were shown. */
  head: z
    .string()
    .regex(/^[0-9a-f]{7,64}$/)
    .optional(),
});
export type GateDecisionForm = z.infer<typeof GateDecisionForm>;

/** The body of a small form post (at most 8 KiB: a gate decision is a few fields). */
export async function readForm(req: IncomingMessage): Promise<Record<string, string>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += buf.length;
    if (size > 8192) throw new Error("form too large");
    chunks.push(buf);
  }
  return Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString("utf8")));
}

export type DecisionResult =
  | { ok: true; goalId: string; notice: string }
  /** Approving a PR-bound gate: the person confirms this preview (of `head`) first. */
  | {
      ok: "confirm";
      goalId: string;
      gate: string;
      question: string;
      head: string;
      preview: string;
      /** The PR (`owner/name` and its number), for the link to its files. */
      pull: { repo: string; number: number };
    }
  | { ok: false; status: number; message: string };

/**
 * The overview's notice line, from a key LoopX itself put in the redirect (`?notice=…`): a
 * link anyone can send must never make the dashboard print their words as LoopX's own.
 * The gate key is shown only when it is one; the login is the demo's own, never the URL's.
 */
export function noticeText(query: URLSearchParams, commenter: Commenter | null): string {
  const gate = /^G\d{1,6}$/.exec(query.get("gate") ?? "")?.[0] ?? null;
  const as = commenter ? ` as @${commenter.login}` : "";
  const posted = (what: string, verb: string) =>
    `Your ${what} was posted: LoopX commented "/loopx ${verb}${gate ? ` ${gate}` : ""}" on the goal issue${as}; the gate changes once the app has processed it.`;
  switch (query.get("notice")) {
    case "approve-posted":
      return posted("approval", "approve");
    case "reject-posted":
      return posted("rejection", "reject");
    default:
      return "";
  }
}

/** Posts the owner's comment for one decision; the app's inbox does the rest. */
export async function postDecision(
  store: Store,
  commenter: Commenter,
  form: GateDecisionForm,
): Promise<DecisionResult> {
  const state = await store.loadGoal(form.goal);
  if (!state) return { ok: false, status: 404, message: "There is no such goal." };
  const gate = state.gates.find((g) => g.key === form.gate);
  if (gate?.status !== "open") {
    return { ok: false, status: 409, message: `${form.gate} is not open (any more).` };
  }
  // An approval of a PR-bound gate covers one head: the person sees what it covers, then
  // confirms that very head; a push since then makes the confirmation stale.
  const preview = gatePreview(state, gate, await store.databaseNow());
  if (form.decision === "approve" && preview !== null) {
    if (form.head === undefined) {
      return {
        ok: "confirm",
        goalId: state.goal.id,
        gate: gate.key,
        question: gate.question,
        head: preview.head,
        preview: gatePreviewWords(preview),
        pull: { repo: `${state.goal.repo.owner}/${state.goal.repo.name}`, number: preview.pr },
      };
    }
    if (!sameSha(form.head, preview.head)) {
      return {
        ok: false,
        status: 409,
        message: `${gate.key} now asks about ${preview.head.slice(0, 12)}, not the head you confirmed (${form.head.slice(0, 12)}): nothing was posted. Look at its new preview first.`,
      };
    }
  }
  const { repo, issue } = state.goal;
  const body = `/loopx ${form.decision} ${form.gate}`;
  await commenter.comment({ owner: repo.owner, repo: repo.name }, issue.number, body);
  const notice = new URLSearchParams({ notice: `${form.decision}-posted`, gate: form.gate });
  return { ok: true, goalId: state.goal.id, notice: notice.toString() };
}
