import type { ChecksVerdict } from "./checks-verdict.ts";
import { prChecksVerdict, sameSha } from "./pr-outcome.ts";
import type { Gate } from "./schemas/gate.ts";
import type { GoalState } from "./schemas/state.ts";

/**
 * What approving a PR-bound gate covers, as GitHub last showed it to LoopX: the pull request
 * and the exact head, what it changes there, and what CI says of that head. Facts about
 * another head are never shown as this one's: they read "not read for this head yet".
 */
export interface GatePreview {
  pr: number;
  head: string;
  /** GitHub's counts for the PR at `head`; null until the monitor read them for it. */
  size: { files: number; insertions: number; deletions: number } | null;
  /** CI on `head`, in words. */
  ci: string;
}

/** The preview of a gate bound to a PR this goal follows; null for any other gate. */
export function gatePreview(state: GoalState, gate: Gate, now: Date): GatePreview | null {
  if (gate.pr === null) return null;
  const head = gate.pr.headSha;
  const pr = state.pullRequests.find((p) => p.number === gate.pr?.number);
  const current = pr !== undefined && sameSha(pr.headSha, head);
  const read = current ? pr.monitor.size : null;
  return {
    pr: gate.pr.number,
    head,
    size:
      read !== null && sameSha(read.sha, head)
        ? { files: read.files, insertions: read.insertions, deletions: read.deletions }
        : null,
    ci: current ? ciWords(prChecksVerdict(pr, now)) : "not read for this head yet",
  };
}

const names = (list: readonly { name: string }[]): string =>
  list
    .slice(0, 5)
    .map((c) => c.name)
    .join(", ") + (list.length > 5 ? ` and ${list.length - 5} more` : "");

function ciWords(v: ChecksVerdict): string {
  switch (v.kind) {
    case "green":
      return `every required check passed (${names(v.passed.map((name) => ({ name })))})`;
    case "failing":
      return `failing: ${names(v.failing)}`;
    case "awaiting_approval":
      return `runs wait for approval: ${names(v.waiting)}`;
    case "unrequired":
      return "no check is required, so nothing says it passes";
    case "skip_ci":
      return "the head skips CI";
    case "not_passed":
      return `required checks completed without passing: ${names(v.checks)}`;
    case "ci_did_not_run":
      return `required checks never reported: ${names(v.missing.map((name) => ({ name })))}`;
    case "pending":
      return v.missing.length > 0
        ? `running; waiting for ${names(v.missing.map((name) => ({ name })))}`
        : "running";
    case "unknown":
      return "the required checks are not known yet";
  }
}

/** The preview in one line: "#5 at abc123456789 · 3 files, +40 −2 · CI: every required …". */
export function gatePreviewWords(p: GatePreview): string {
  const size =
    p.size === null
      ? "size not read for this head yet"
      : `${p.size.files} file${p.size.files === 1 ? "" : "s"}, +${p.size.insertions} −${p.size.deletions}`;
  return `#${p.pr} at ${p.head.slice(0, 12)} · ${size} · CI: ${p.ci}`;
}
