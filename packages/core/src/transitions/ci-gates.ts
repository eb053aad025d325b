import type { ChecksVerdict } from "../checks-verdict.ts";
import { ciQuestionText } from "../ci-question.ts";
import { type PrOutcome, sameSha } from "../pr-outcome.ts";
import type { PullRequest } from "../schemas/state.ts";
import type { Draft } from "./kit.ts";
import { expireWhere, openGateIn } from "./open-gate.ts";

/** The scopes of the CI questions and approval gate LoopX asks about PR `n`. */
export const ciScopes = (n: number) => [`ci:${n}`, `ci-approval:${n}`, `ci-unrequired:${n}`];

const CI_RAN = new Set<ChecksVerdict["kind"]>(["green", "failing"]);

/**
 * CI questions answer themselves: checks that ran (green or red) or a new head close the
 * per-head ones; a base that requires checks now closes "requires no checks".
 */
export function expireCiQuestions(d: Draft, pr: PullRequest, verdict: ChecksVerdict): boolean {
  const n = pr.number;
  const asked = pr.monitor.ciAskedFor;
  const moot = CI_RAN.has(verdict.kind) || (asked !== null && !sameSha(asked, pr.headSha));
  const perHead = moot
    ? expireWhere(
        d,
        (g) => g.scopes.includes(`ci:${n}`) || g.scopes.includes(`ci-approval:${n}`),
        `#${n}'s checks ran, or its head moved`,
      )
    : false;
  const required =
    verdict.kind !== "unrequired" && verdict.kind !== "unknown"
      ? expireWhere(
          d,
          (g) => g.scopes.includes(`ci-unrequired:${n}`),
          `#${n}'s base requires checks now`,
        )
      : false;
  return perHead || required;
}

/** Asks the owners the one CI question, or for the approval of runs waiting on the head. */
export function askAboutCi(
  d: Draft,
  pr: PullRequest,
  outcome: Extract<PrOutcome, { kind: "ci_question" | "ci_approval" }>,
): void {
  const n = pr.number;
  if (outcome.kind === "ci_question") {
    const unrequired = outcome.verdict.kind === "unrequired";
    if (!unrequired) pr.monitor.ciAskedFor = pr.headSha;
    openGateIn(d, {
      question: ciQuestionText(n, outcome.verdict),
      scopes: [unrequired ? `ci-unrequired:${n}` : `ci:${n}`],
      todo: pr.todo,
    });
    return;
  }
  pr.monitor.ciAskedFor = pr.headSha;
  const names = outcome.waiting.map((c) => c.name).join(", ");
  const question = `Workflow runs on #${n}'s head ${pr.headSha.slice(0, 12)} wait for approval (${names}). Approve this gate to let them run: LoopX approves them where GitHub allows it (pull requests from forks); otherwise press "Approve and run" on the pull request's Checks tab.`;
  openGateIn(d, { question: question.slice(0, 2000), scopes: [`ci-approval:${n}`], todo: pr.todo });
}
