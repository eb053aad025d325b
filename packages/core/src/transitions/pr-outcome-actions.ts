import type { z } from "zod";
import { renderDataBlock } from "../brief-text.ts";
import type { PrOutcome } from "../pr-outcome.ts";
import { countRepair, markAsked } from "../repair-policy.ts";
import type { PrCheck } from "../schemas/pr-monitor.ts";
import type { PullRequest } from "../schemas/state.ts";
import type { Todo } from "../schemas/todo.ts";
import { releaseAwaiting } from "./await-pull-request.ts";
import { askAboutCi, ciScopes } from "./ci-gates.ts";
import { completeTodo, continuationAfter } from "./complete-todo.ts";
import type { Draft } from "./kit.ts";
import { appendEvidence, appendTodo, dropIn, emit, type NewTodo, resetBackoff } from "./kit.ts";
import { expireWhere, openGateIn } from "./open-gate.ts";

function checkLines(failing: z.output<typeof PrCheck>[]): string {
  return failing
    .map((c) => {
      const head = `${c.name}: failed${c.url ? ` (${c.url})` : ""}`;
      const test = c.failure?.test ? `\nfirst failing test: ${c.failure.test}` : "";
      const excerpt = c.failure?.excerpt ? `\n${c.failure.excerpt}` : "";
      return `${head}${test}${excerpt}`;
    })
    .join("\n\n");
}

/** The question past the limit; the CI output in it is fenced, never prose LoopX wrote. */
function exhaustedQuestion(pr: PullRequest, failing: PrCheck[], limit: number): string {
  const n = pr.number;
  const names = [...new Set(failing.map((c) => c.name))].join(", ");
  const why =
    limit === 0
      ? `#${n} fails its checks (${names}) and this repository's \`repair: {attempts: 0}\` asks LoopX never to repair, so it asks you.`
      : `#${n} still fails its checks (${names}) with the same failure after ${limit} repair attempts, so LoopX stops repairing it.`;
  const ask =
    "Fix it yourself, or tell LoopX how (a comment, or /loopx todo add …); this question closes when the checks are green.";
  const prose = `${why} ${ask}`;
  // The gate's question holds 2000 characters: the excerpt gets what the prose leaves.
  const excerpt = renderDataBlock(
    `failing checks of #${n}`,
    checkLines(failing),
    1990 - prose.length - 2,
  );
  return excerpt === "" ? prose : `${prose}\n\n${excerpt}`;
}

/** The gates bound to a PR that ends: nothing is left to approve on it. */
function expireGates(d: Draft, pr: number): void {
  expireWhere(
    d,
    (g) =>
      g.pr?.number === pr ||
      g.scopes.some((s) => [`draft:${pr}`, `repair:${pr}`, ...ciScopes(pr)].includes(s)),
    `#${pr} is no longer open`,
  );
}

function onMerged(d: Draft, pr: PullRequest): void {
  pr.monitor.watching = false;
  expireGates(d, pr.number);
  const sha = pr.monitor.mergeCommitSha ?? pr.headSha;
  const evidence = appendEvidence(d, {
    kind: "pr",
    summary: `#${pr.number} merged as ${sha.slice(0, 12)}`,
    todo: pr.todo,
    sha,
  });
  emit(d, "pull_request.merged", { pr: pr.number, sha });
  d.checklist = true;
  const servedKeys = new Set([...(pr.todo ? [pr.todo] : []), ...pr.monitor.todos]);
  const served = d.state.todos.filter(
    (t) => servedKeys.has(t.key) && t.status !== "done" && t.status !== "dropped",
  );
  // Work remains elsewhere: the goal goes on; nothing remains: the merge finished it.
  const continuation = continuationAfter(d, servedKeys, `merged in #${pr.number}`);
  for (const todo of served) {
    completeTodo(d, todo, {
      evidenceIds: [evidence],
      continuation,
      by: `#${pr.number}`,
      delivered: true,
    });
  }
}

function onClosed(d: Draft, pr: PullRequest): void {
  pr.monitor.watching = false;
  expireGates(d, pr.number);
  appendEvidence(d, {
    kind: "pr",
    summary: `#${pr.number} closed without merging`,
    todo: pr.todo,
  });
  emit(d, "pull_request.closed", { pr: pr.number });
  for (const todo of d.state.todos) {
    if (todo.key === pr.todo) releaseAwaiting(d, todo, `#${pr.number} was closed unmerged`);
  }
  // Its work did not land: the plan must change (requestReplan's effect, without a person).
  d.state.goal.replanRequested = true;
  emit(d, "goal.replan_requested", { reason: `#${pr.number} was closed unmerged` });
  resetBackoff(d, `#${pr.number} closed`);
}

/** The todo works on this PR: it runs on the PR's branch and completes when the PR merges. */
function serve(pr: PullRequest, todo: Todo): void {
  pr.monitor.todos = [...pr.monitor.todos, todo.key].slice(-100);
}

/** The open todo of `kind` LoopX queued for the PR, if any. */
function openRemedy(d: Draft, pr: PullRequest, kind: Todo["kind"]): Todo | undefined {
  return d.state.todos.find(
    (t) =>
      t.kind === kind &&
      pr.monitor.todos.includes(t.key) &&
      t.status !== "done" &&
      t.status !== "dropped",
  );
}

/**
 * Queues the repair, review or rebase todo a PR's outcome calls for. A todo of that kind
 * already open for the PR takes the news instead (the latest failure, review or reason), so a
 * PR whose every new head still fails or conflicts holds one such todo, not one per head.
 */
function remedy(d: Draft, pr: PullRequest, input: NewTodo & { kind: Todo["kind"] }): void {
  const open = openRemedy(d, pr, input.kind);
  if (!open) {
    serve(pr, appendTodo(d, input));
    return;
  }
  open.title = input.title;
  open.detail = input.detail ?? "";
  open.updatedAt = d.ctx.now;
  d.checklist = true;
  emit(d, "todo.edited", { todo: open.key, by: "pr-monitor", pr: pr.number });
}

/**
 * Outcomes that make a PR unmergeable as it stands (whatever held when its gate opened). A
 * change request is not among them: the review todo's push moves the gate to the new head,
 * where the owner judges the answer to the review.
 */
const NOT_READY = new Set<PrOutcome["kind"]>([
  "repair",
  "repairs_exhausted",
  "rebase",
  "draft",
  "ci_question",
  "ci_approval",
]);

/**
 * What LoopX does about a PR's ONE outcome (pr-outcome.ts): complete what its merge
 * delivered, release what its close did not, queue a repair, review or rebase todo that
 * serves the PR, or ask a person (repairs exhausted, a draft, CI, the merge itself).
 */
export function actOnPrOutcome(
  d: Draft,
  pr: PullRequest,
  outcome: PrOutcome,
  merge: { gate: boolean; scopes: readonly string[] },
): void {
  const n = pr.number;
  if (NOT_READY.has(outcome.kind)) {
    // A merge question asked while the PR was ready must not be approvable once it is not
    // (a commit status turned red on the same head); it asks again when the PR is ready.
    expireWhere(
      d,
      (g) => g.pr?.number === n && g.scopes.includes("merge"),
      `#${n} is no longer ready (${outcome.kind})`,
    );
  }
  switch (outcome.kind) {
    case "merged":
      onMerged(d, pr);
      return;
    case "closed":
      onClosed(d, pr);
      return;
    case "repair": {
      countRepair(pr, outcome.failing);
      for (const c of outcome.failing) {
        appendEvidence(d, {
          kind: "check",
          summary: `${c.name} failed on #${n} at ${pr.headSha.slice(0, 12)}`,
          todo: pr.todo,
          url: c.url,
          sha: pr.headSha,
        });
      }
      const names = outcome.failing.map((c) => c.name).join(", ");
      remedy(d, pr, {
        title: `Fix failing checks on #${n}: ${names}`.slice(0, 256),
        detail: renderDataBlock(`failing checks of #${n}`, checkLines(outcome.failing), 1800),
        kind: "repair",
        origin: "pr-monitor",
      });
      resetBackoff(d, `checks failed on #${n}`);
      return;
    }
    case "repairs_exhausted": {
      markAsked(pr, outcome.failing);
      const gate = openGateIn(d, {
        question: exhaustedQuestion(pr, outcome.failing, outcome.limit),
        scopes: [`repair:${n}`],
        todo: pr.todo,
      });
      // As the question says, LoopX stops repairing: another slice on the same failure is
      // what spins a loop, each push passing locally and failing CI the same way.
      const repair = openRemedy(d, pr, "repair");
      if (repair) dropIn(d, repair, `repairs of #${n} are exhausted; ${gate.key} asks the owners`);
      return;
    }
    case "review": {
      const review = pr.monitor.changesRequested;
      if (!review) return;
      remedy(d, pr, {
        title: `Address @${review.by}'s review on #${n}`,
        detail: renderDataBlock(`review by @${review.by} on #${n}`, review.body, 1800),
        kind: "review",
        origin: "pr-monitor",
      });
      resetBackoff(d, `changes requested on #${n}`);
      return;
    }
    case "rebase":
      remedy(d, pr, {
        title:
          outcome.why === "behind"
            ? `Update #${n}'s branch: it is behind its base, which must be merged in first`
            : `Update #${n}'s branch: it conflicts with its base`,
        kind: "rebase",
        origin: "pr-monitor",
      });
      resetBackoff(d, `#${n} ${outcome.why === "behind" ? "is behind its base" : "conflicts"}`);
      return;
    case "draft":
      openGateIn(d, {
        question: `#${n} is a draft. Mark it ready for review when it should be reviewed and merged (this question then closes), or tell LoopX what it still needs.`,
        scopes: [`draft:${n}`],
        todo: pr.todo,
      });
      return;
    case "ci_question":
    case "ci_approval":
      askAboutCi(d, pr, outcome);
      return;
    case "ready": {
      if (!merge.gate) return;
      const bound = d.state.gates.some(
        (g) =>
          g.pr?.number === n &&
          g.scopes.includes("merge") &&
          (g.status === "open" || g.status === "approved"),
      );
      if (bound) return;
      openGateIn(d, {
        question: `#${n} is ready: checks are green and no changes are requested. Approve its current head to let it be merged (LoopX never merges by itself).`,
        scopes: [...new Set(["merge", ...merge.scopes])],
        todo: pr.todo,
        pr: { number: n, headSha: pr.headSha },
      });
      return;
    }
    case "quiet":
      return;
  }
}
