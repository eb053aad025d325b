import { z } from "zod";
import { DEFAULT_REPAIR_ATTEMPTS } from "../repair-policy.ts";
import { DiffSize, Instant, Login, Sha, TodoKey } from "./primitives.ts";

/**
 * One check on the PR's head, as GitHub last reported it (check runs, commit statuses and
 * workflow runs waiting for approval). Neutral and skipped are their own results: neither
 * is a success. `action_required` waits for a person; `runId` names the workflow run to
 * approve when GitHub lets an API approve it.
 */
export const PrCheck = z.object({
  name: z.string().min(1).max(200),
  status: z.enum(["pending", "success", "failure", "neutral", "skipped", "action_required"]),
  url: z.url().nullable().default(null),
  runId: z.number().int().positive().nullable().default(null),
  /** The App that wrote a check run (CI running agent code can name a check anything); null for a commit status. */
  appId: z.number().int().nonnegative().nullable().default(null),
  /** A failed check's signature (failure-signature.ts), read from its output when it failed. */
  failure: z
    .object({
      key: z.string().min(1).max(300),
      test: z.string().max(200).nullable().default(null),
      /** CI output: untrusted, only ever shown fenced. */
      excerpt: z.string().max(1000).default(""),
    })
    .nullable()
    .default(null),
});
export type PrCheck = z.infer<typeof PrCheck>;

/** Repairs spent on one failure signature of a PR, and whether its owners were asked about it. */
export const RepairCount = z.object({
  key: z.string().min(1).max(300),
  attempts: z.number().int().nonnegative(),
  asked: z.boolean().default(false),
});
export type RepairCount = z.infer<typeof RepairCount>;

/** The latest "changes requested" review by a person with write access, read at the time of the act. */
export const ChangesRequested = z.object({
  id: z.number().int().positive(),
  by: Login,
  /** The head the review was written against. */
  commitId: Sha,
  /** The review's text: untrusted prose, only ever shown to an agent as fenced data. */
  body: z.string().max(4000),
  at: Instant,
  url: z.url().nullable().default(null),
});
export type ChangesRequested = z.infer<typeof ChangesRequested>;

/**
 * What LoopX's PR monitor last read about one linked pull request, plus what it already
 * acted on. Every field has a default so rows stored before the monitor existed still parse.
 */
export const PrMonitor = z.object({
  /** False once the PR merged or closed: the watch ended. */
  watching: z.boolean().default(true),
  draft: z.boolean().default(false),
  /** GitHub computes mergeability lazily: null means "not known yet", never "fine". */
  mergeable: z.boolean().nullable().default(null),
  mergeableState: z.string().max(40).nullable().default(null),
  /** Checks of `checksSha` (only checks of the current head count). */
  checks: z.array(PrCheck).max(100).default([]),
  checksSha: Sha.nullable().default(null),
  /**
   * The checks the base branch requires (rulesets, classic protection and `checks:` in
   * .github/loopx.yml together); null until read. Empty: nothing can say the PR is green.
   */
  required: z.array(z.string().min(1).max(200)).max(100).nullable().default(null),
  /** The head LoopX last saw arrive, and when: CI that never reports is judged from here. */
  headSeenSha: Sha.nullable().default(null),
  headSeenAt: Instant.nullable().default(null),
  /** The head the open CI question or approval gate was asked about (a new head moots it). */
  ciAskedFor: Sha.nullable().default(null),
  /** The head commit asks GitHub to skip CI (`[skip ci]` and its kin). */
  skipCi: z.boolean().default(false),
  /** What the PR changes at `sha`, as GitHub counts it: what an approval of that head covers. */
  size: DiffSize.extend({ sha: Sha }).nullable().default(null),
  changesRequested: ChangesRequested.nullable().default(null),
  /** Every review thread resolved (GitHub's GraphQL; false when unknown). */
  threadsResolved: z.boolean().default(false),
  /** Outcomes already acted on: the same failure announced again makes nothing new. */
  fingerprints: z.array(z.string().max(300)).max(200).default([]),
  /**
   * `repair.attempts` of .github/loopx.yml as the last reading found it: a transition that
   * judges the PR without a new reading (its own todo finished) applies the same limit.
   */
  repairLimit: z.number().int().min(0).max(20).default(DEFAULT_REPAIR_ATTEMPTS),
  /** Repair todos made for this PR, every signature together. */
  repairAttempts: z.number().int().nonnegative().default(0),
  /**
   * Repairs per failure signature: a new signature is a new problem with its own attempts.
   * Empty on rows from before signatures: their `repairAttempts` counts for the first one.
   */
  repairs: z.array(RepairCount).max(50).default([]),
  /** Todos the monitor made for this PR (repair, review, rebase): they work on its branch. */
  todos: z.array(TodoKey).max(100).default([]),
  mergeCommitSha: Sha.nullable().default(null),
});
export type PrMonitor = z.infer<typeof PrMonitor>;
