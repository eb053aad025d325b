import { z } from "zod";
import { LOOPX_RELEASE_COMMITS } from "./release-commits.ts";

const SHIPPED = ["loopx-tick.yml", "loopx-wake.yml"].map(
  (f) => `loopx/loopx/.github/workflows/${f}`,
);

/**
 * The reusable workflows LoopX ships, as GitHub names them in `job_workflow_ref` when a
 * repository's tick or wake workflow calls them (`uses: loopx/loopx/.github/workflows/
 * loopx-tick.yml@v1` → `…@refs/tags/v1`): any release tag, `main`, or a release commit.
 * A trailing `*` matches any suffix, but never a bare SHA. Deployments that fork or mirror
 * the workflows list their own refs instead (`LOOPX_TICK_WORKFLOW_REFS`, comma-separated).
 */
export const DEFAULT_TICK_WORKFLOW_REFS = SHIPPED.flatMap((w) => [
  `${w}@refs/tags/*`,
  `${w}@refs/heads/main`,
  ...LOOPX_RELEASE_COMMITS.map((sha) => `${w}@${sha}`),
]);

const minutes = z
  .number()
  .positive()
  .max(24 * 60);

/**
 * The tick API's deployment settings, validated once at start-up. Every field has a default
 * that is right for github.com; tests point `issuer` at the sandbox.
 */
export const TickApiSettings = z.object({
  /** The OIDC issuer (`iss`): github.com's Actions issuer, a GHES one, or the sandbox. */
  issuer: z.url().default("https://token.actions.githubusercontent.com"),
  /** Where the issuer's signing keys are; default `<issuer>/.well-known/jwks`. */
  jwksUrl: z.url().optional(),
  /**
   * The audience this deployment accepts: its own URL (LOOPX_PUBLIC_URL), which the action
   * requests by default (its `api-url`), so no deployment accepts another's tokens.
   */
  audience: z.string().min(1),
  /** Leeway for exp/nbf/iat between GitHub's clock and ours. */
  clockToleranceSeconds: z.number().int().min(0).max(300).default(30),
  /** Refuse tokens issued longer ago than this, whatever their `exp`. */
  maxTokenAgeSeconds: z.number().int().positive().max(3600).default(900),
  /**
   * `job_workflow_ref`s accepted besides the repository's own tick workflow: the reusable
   * workflow(s) LoopX ships. The caller (`workflow_ref`) must still be the repository's tick
   * workflow on its default branch.
   */
  allowedWorkflowRefs: z.array(z.string().min(3)).default(DEFAULT_TICK_WORKFLOW_REFS),
  /** Workflow files (besides the tick workflow) allowed to call `/api/v1/wake` — the cron backstop. */
  wakeWorkflowFiles: z
    .array(z.string().regex(/^[A-Za-z0-9._-]+\.ya?ml$/))
    .default(["loopx-wake.yml"]),
  /**
   * The lease a claim holds: longer than the agent job's `timeout-minutes` plus the report
   * job, so a slow but alive tick is never expired under it. Raised automatically when a
   * goal's tick cap allows a longer slice.
   */
  leaseTtlMinutes: minutes.default(45),
  /** Time the report job may take after the slice, added to a slice's wall time for its lease. */
  reportMinutes: minutes.default(10),
  /** A slice with no output for this long is stopped (the adapter enforces it). */
  idleMinutes: minutes.default(10),
  /** Model turns one slice may take. */
  maxTurns: z.number().int().positive().max(1000).default(60),
  /** Request bodies larger than this are refused with 413. */
  bodyLimitBytes: z
    .number()
    .int()
    .positive()
    .default(256 * 1024),
  /** Per repository and replica: requests per minute, with bursts up to `burst`. */
  rateLimit: z
    .object({
      perMinute: z.number().positive().default(60),
      burst: z.number().int().positive().default(20),
    })
    .prefault({}),
  /** How long a repository's default branch and `.github/loopx.yml` are trusted from cache. */
  repoFactsTtlMs: z
    .number()
    .int()
    .nonnegative()
    .default(5 * 60_000),
  /** Used token ids are kept this long after they expire (they also show a run reached us). */
  usedTokenRetentionHours: z.number().positive().default(24),
});
export type TickApiSettings = z.infer<typeof TickApiSettings>;
export type TickApiSettingsInput = z.input<typeof TickApiSettings>;
