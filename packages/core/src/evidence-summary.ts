import { reportedSummary } from "./pushed-commit.ts";
import type { Evidence } from "./schemas/evidence.ts";
import { readTestCounts } from "./test-counts.ts";

/** Evidence items hold at most this much text: the one-line summary and the raw tail after it. */
export const EVIDENCE_SUMMARY_MAX = 500;

/**
 * What the slice's agent reported is marked with this, by the harness that read its result
 * file: the agent writes the rest of the text, so only the mark tells its words from a fact
 * LoopX checked.
 */
export const AGENT_CLAIM_PREFIX = "agent's claim: ";

export const agentClaimSummary = (summary: string): string =>
  `${AGENT_CLAIM_PREFIX}${summary}`.slice(0, EVIDENCE_SUMMARY_MAX);

export interface TestRun {
  command: string;
  exitCode: number | null;
  passed: boolean;
  /** The run's output, or its tail: runners print their counts last. */
  output: string;
}

/**
 * One line for a validation run, in the runner's own counts where its summary is in the
 * output ("node --test: 4 passed, 0 failed, exit 0"), else the command and its exit.
 */
export function testRunLine(run: TestRun): string {
  const exit = run.exitCode === null ? "no exit code" : `exit ${run.exitCode}`;
  const timedOut = /^validation timed out after \d+ ms/.exec(run.output)?.[0];
  const ending = timedOut ? `${exit}, ${timedOut.replace(/^validation /, "")}` : exit;
  const counts = readTestCounts(run.output);
  if (counts === null) {
    return `\`${oneLine(run.command, 120)}\` ${run.passed ? "passed" : "failed"}, ${ending}`;
  }
  const skipped = counts.skipped > 0 ? `, ${counts.skipped} skipped` : "";
  return `${counts.runner}: ${counts.passed} passed, ${counts.failed} failed${skipped}, ${ending}`;
}

/**
 * A validation run as one evidence summary: its line first, then as much of the output's end
 * as fits, starting at a line boundary so no line is shown cut at its start.
 */
export function testRunEvidence(run: TestRun): string {
  const line = testRunLine(run);
  const room = EVIDENCE_SUMMARY_MAX - line.length - 1;
  const output = run.output.replace(/^(?:exit \S+|validation timed out after \d+ ms)\n/, "").trim();
  if (room <= 0 || output === "") return line.slice(0, EVIDENCE_SUMMARY_MAX);
  let tail = output.slice(-room);
  const cut = tail.length < output.length ? tail.indexOf("\n") : -1;
  if (cut >= 0) tail = tail.slice(cut + 1);
  return tail === "" ? line : `${line}\n${tail}`;
}

export interface CommitFacts {
  sha: string;
  message: string;
  diffstat?: { files: number; insertions: number; deletions: number } | null;
}

/**
 * A slice's commit as one line: its subject (the agent wrote it, so it never passes for the
 * App's own "pushed …" record) and its diffstat, "Cache parsed ASTs · 2 files, +10 −2".
 */
export function commitSummary(c: CommitFacts): string {
  const subject = c.message.split("\n")[0]?.trim() || `commit ${c.sha.slice(0, 7)}`;
  const s = c.diffstat;
  const stat = s
    ? ` · ${s.files} file${s.files === 1 ? "" : "s"}, +${s.insertions} −${s.deletions}`
    : "";
  return reportedSummary(`${oneLine(subject, EVIDENCE_SUMMARY_MAX - stat.length - 12)}${stat}`);
}

export interface EvidenceView {
  /** One line a person reads. */
  line: string;
  /** The raw text behind it (a runner's tail, a log), shown collapsed; null when there is none. */
  detail: string | null;
  /** Reported by the agent and not checked by LoopX. */
  claimed: boolean;
}

/**
 * How an evidence item reads: its first line as the summary, the rest as the raw detail, and
 * whether it is the agent's word. Items stored before summaries had a first line of their own
 * read the same way.
 */
export function evidenceView(e: Pick<Evidence, "summary">): EvidenceView {
  const claimed = e.summary.startsWith(AGENT_CLAIM_PREFIX);
  const text = claimed ? e.summary.slice(AGENT_CLAIM_PREFIX.length) : e.summary;
  const [first = "", ...rest] = text.replace(/\r\n?/g, "\n").split("\n");
  const detail = rest.join("\n").trim();
  return { line: first.trim() || "(no summary)", detail: detail === "" ? null : detail, claimed };
}

/**
 * Evidence a person should see once: items that read the same (kind, sha and line) are one
 * fact told twice, so only the first is kept.
 */
export function distinctEvidence<T extends Pick<Evidence, "kind" | "sha" | "summary">>(
  items: readonly T[],
): T[] {
  const seen = new Set<string>();
  const out: T[] = [];
  for (const e of items) {
    const v = evidenceView(e);
    const key = `${e.kind}\0${e.sha ?? ""}\0${v.claimed}\0${v.line}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(e);
  }
  return out;
}

/** Text folded onto one line, cut with an ellipsis past `max` characters. */
export function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
