import {
  CLAIM_CHECK,
  type Effect,
  type PlannedCheckRun,
  plannedCheckRuns,
  releasedClaimCheck,
} from "@loopx/core";
import { GitHubError } from "@loopx/github";
import { mayRetry, type Refusal, UNAVAILABLE } from "./checks-refusal.ts";
import { postNotification } from "./notify-owners.ts";
import type { EffectContext } from "./perform-effect.ts";

/** GitHub's answer to an installation token without `checks: write`. */
function lacksChecksWrite(error: unknown): boolean {
  return (
    error instanceof GitHubError &&
    error.status === 403 &&
    error.retryAfterSeconds === null &&
    error.message.includes("Resource not accessible by integration")
  );
}

function notice(ctx: EffectContext): Extract<Effect, { kind: "notify" }> {
  const { owner, name } = ctx.state.goal.repo;
  return {
    kind: "notify",
    key: "notify:checks_unavailable",
    reminder: false,
    occasion: {
      kind: "checks_unavailable",
      key: "checks_unavailable",
      at: ctx.now,
      gate: null,
      todo: null,
      text: [
        `LoopX cannot write check runs in ${owner}/${name}: this installation has not accepted the \`checks: write\` permission (GitHub answered 403 "Resource not accessible by integration").`,
        "",
        "Until an owner of the installation accepts it, LoopX shows claims and gates on this issue's checklist only, and gates are approved by comment as before; a ruleset requiring `LoopX / gates` would block every merge. Once it is accepted, LoopX's checks appear on its PRs; it will not say this again.",
      ].join("\n"),
    },
  };
}

/**
 * Brings LoopX's own check runs on its open PRs' heads to what the newest state says: one
 * write per run whose conclusion or text changed, none otherwise. A head keeps the run LoopX
 * created there (by id), so a later verdict updates it in place. A create whose answer was
 * lost is created again on retry: GitHub takes the newest run of a name as the verdict, and
 * both are LoopX's. Without `checks: write` the owners are told once; LoopX asks again at
 * most once an hour, or at once after the installation accepts new permissions, silently.
 */
export async function writeCheckRuns(ctx: EffectContext): Promise<void> {
  const { deps, port, state } = ctx;
  const { store } = deps;
  const goalId = state.goal.id;
  const refused = await store.getProjection(goalId, UNAVAILABLE);
  if (refused !== null && !mayRetry(refused.wroteBody, ctx.now)) return;
  const { owner, name } = state.goal.repo;
  const repo = { owner, repo: name };
  const detailsUrl = `${deps.serverUrl}/${owner}/${name}/issues/${state.goal.issue.number}`;
  const planned = plannedCheckRuns(state, ctx.now);
  // A claim that ended is written over only where LoopX wrote it, never on a fresh head.
  const released: PlannedCheckRun[] = [];
  for (const pr of state.pullRequests) {
    if (pr.state !== "open") continue;
    if (planned.some((r) => r.name === CLAIM_CHECK && r.pr === pr.number)) continue;
    const known = await store.getProjection(goalId, `check:${CLAIM_CHECK}:${pr.headSha}`);
    if (known?.githubId != null) released.push(releasedClaimCheck(state, pr));
  }
  for (const run of [...planned, ...released]) {
    const target = `check:${run.name}:${run.headSha}` as const;
    const wrote = JSON.stringify([run.conclusion, run.title, run.summary]);
    const known = await store.getProjection(goalId, target);
    if (known?.githubId != null && known.wroteBody === wrote) continue;
    const write = {
      name: run.name,
      conclusion: run.conclusion,
      title: run.title,
      summary: run.summary,
      detailsUrl,
    };
    let id = known?.githubId ?? null;
    try {
      if (id !== null) await port.updateCheckRun(repo, id, write);
      else id = (await port.createCheckRun(repo, run.headSha, write)).id;
    } catch (error) {
      if (!lacksChecksWrite(error)) throw error;
      // Told first, and once: a failed notice retries the whole row, and the refusal comes again.
      if (refused === null) await postNotification(ctx, notice(ctx));
      const marker: Refusal = {
        refusedAt: ctx.now.toISOString(),
        accepted: false,
        message: error instanceof Error ? error.message : String(error),
      };
      await store.setProjection(goalId, UNAVAILABLE, { wroteBody: JSON.stringify(marker) });
      return;
    }
    await store.setProjection(goalId, target, { githubId: id, wroteBody: wrote });
  }
}
