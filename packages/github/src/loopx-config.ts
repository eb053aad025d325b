import { Login, Scope } from "@loopx/core";
import { z } from "zod";
import { HarnessName } from "./command.ts";
import { JobsConfig } from "./job-config.ts";

// No .refine/.superRefine anywhere in this file: z.toJSONSchema cannot express them, and the
// editor schema must say everything the parser checks. Every object is strict so a typo
// (`lable:`) is an error with a path, never a silently ignored key.

/** A gate LoopX opens by itself before a kind of action. */
const EventGateRule = z
  .strictObject({
    /**
     * The action that needs approval: `merge`, merging a LoopX pull request (a gate bound to
     * its head); `open_pr`, opening a todo's first pull request (one gate per todo).
     */
    when: z
      .enum(["merge", "open_pr"])
      .describe("The action that needs approval: merge, or open_pr (a todo's first PR)."),
    /**
     * The scopes the gate covers besides its own (`merge`; `open_pr:<todo>`): work needing
     * them waits until a writer approves it.
     */
    scopes: z
      .array(Scope)
      .min(1)
      .describe("Scopes the gate covers besides its own, e.g. [merge, deploy]."),
  })
  .describe("Open a gate before an action, e.g. { when: merge, scopes: [merge] }.");

/** A gate LoopX opens before changing files that match. */
const PathGateRule = z
  .strictObject({
    /** Glob patterns (`.github/**`, `migrations/*.sql`) of files whose change needs approval. */
    paths: z.array(z.string().min(1).max(200)).min(1).describe("Globs of guarded files."),
    /** The scopes the gate covers, e.g. `write:.github`. */
    scopes: z.array(Scope).min(1).describe("Scopes the gate covers, e.g. write:.github."),
  })
  .describe("Open a gate before touching matching files.");

export const GateRule = z.union([EventGateRule, PathGateRule], {
  error:
    "a gate rule is { when: merge | open_pr, scopes: [...] } or { paths: [globs], scopes: [...] }",
});
export type GateRule = z.infer<typeof GateRule>;

const usd = z.number().nonnegative().max(100_000);
const tokens = z.number().int().nonnegative();
const minutes = z
  .number()
  .nonnegative()
  .max(60 * 24 * 365);

/** Per-goal ceilings. Only a configured owner can raise a goal's budget, and never above these. */
const GoalBudget = z.strictObject({
  /** US dollars the harness may spend on one goal. */
  usd: usd.default(25).describe("USD one goal may spend in total."),
  /** Model tokens (input + output) for one goal. */
  tokens: tokens.default(10_000_000).describe("Model tokens one goal may use in total."),
  /** GitHub Actions minutes of tick runs for one goal. */
  runnerMinutes: minutes.default(600).describe("Actions runner minutes one goal may use."),
  /** Ticks (workflow runs of the agent) for one goal. */
  ticks: z.number().int().positive().default(100).describe("Ticks one goal may run."),
});

/** The most one tick may cost. A tick that crashes or never reports is charged this cap. */
const TickCap = z.strictObject({
  /** US dollars one slice may spend. */
  usd: usd.default(2).describe("USD one tick may spend."),
  /** Model tokens one slice may use. */
  tokens: tokens.default(1_000_000).describe("Model tokens one tick may use."),
  /** Wall-clock minutes of one tick's agent job. */
  runnerMinutes: minutes.default(30).describe("Runner minutes one tick may take."),
});

/** `.github/loopx.yml` in the target repository. Every field is optional. */
export const LoopxConfig = z
  .strictObject({
    /** The issue label that starts a goal. */
    label: z.string().trim().min(1).max(50).default("loopx").describe("Label that starts a goal."),
    /** File name of the tick workflow in `.github/workflows/` that LoopX dispatches. */
    tickWorkflow: z
      .string()
      .regex(/^[A-Za-z0-9._-]+\.ya?ml$/, "a workflow file name such as loopx-tick.yml")
      .default("loopx-tick.yml")
      .describe("File name of the tick workflow in .github/workflows/."),
    /** The agent that runs slices unless a goal switches (`/loopx harness …`). */
    harness: z
      .strictObject({
        /** Which adapter runs a slice. */
        default: HarnessName.default("claude-code").describe("Which agent runs a slice."),
        /** Tools the agent may use (Claude Code syntax, e.g. `Bash(npm test:*)`); empty: the adapter's minimal set. */
        allowedTools: z
          .array(z.string().min(1).max(200))
          .max(100)
          .default([])
          .describe("Tools the agent may use; empty means the adapter's minimal set."),
      })
      .prefault({})
      .describe("The agent and what it may do."),
    /** The command whose pass makes a slice's progress count (e.g. `npm test`); null: none. */
    validationCommand: z
      .string()
      .min(1)
      .max(500)
      .nullable()
      .default(null)
      .describe("Command whose pass validates a slice, e.g. npm test."),
    /** Spending limits. */
    budgets: z
      .strictObject({
        /** Ceilings for one goal. */
        goal: GoalBudget.prefault({}).describe("Ceilings for one goal."),
        /** The cap for one tick. */
        tick: TickCap.prefault({}).describe("The cap for one tick."),
      })
      .prefault({})
      .describe("Spending limits."),
    /**
     * Who lets an agent's plan run. `approve`: the todos an agent proposes wait as proposed
     * behind one gate until a writer approves the plan; `auto`: they are ready at once.
     * Unset: `approve` for goals on issues whose author lacked write access, else `auto`.
     */
    plan: z
      .enum(["approve", "auto"])
      .optional()
      .describe(
        "approve: an agent's proposed todos wait for a writer to approve the plan; auto: they run at once. Unset: approve on issues a non-writer opened, auto otherwise.",
      ),
    /**
     * How many ticks of one goal may run at once, each on a todo whose declared `paths` (and
     * scopes) overlap no other running todo's, in its own workflow concurrency group (the
     * caller's `slot` input). A todo that declares no paths never runs beside another.
     */
    parallel: z
      .number()
      .int()
      .min(1)
      .max(8)
      .default(1)
      .describe(
        "How many ticks of one goal may run at once (1-8), each on a todo whose declared paths overlap no other running todo's.",
      ),
    /**
     * Logins that own every goal here (besides whoever labelled it): they are asked for
     * reviews and may raise budgets — only while they have write access, like anyone acting.
     */
    owners: z.array(Login).max(50).default([]).describe("Logins that own every goal."),
    /**
     * Checks that must pass on a PR's head besides those the base's rulesets and branch
     * protection require. With none from any source, no check can make branch work green.
     */
    checks: z
      .array(z.string().min(1).max(200))
      .max(100)
      .default([])
      .describe("Checks that must pass on a PR's head, besides those the base branch requires."),
    /**
     * How often LoopX repairs a PR's failing check before asking its owners. Attempts are
     * counted per failure signature (check, app, and the first failing test the check's output
     * names, else its first error line): a different failure is a new problem with its own.
     */
    repair: z
      .strictObject({
        attempts: z
          .number()
          .int()
          .min(0)
          .max(20)
          .default(3)
          .describe(
            "Repair todos per failing check and failure signature before one question to the owners; 0 asks at once.",
          ),
      })
      .prefault({})
      .describe("Repairs of failing checks on LoopX's pull requests."),
    /** Gates LoopX opens by itself. Replaces the default list when given. */
    gates: z
      .array(GateRule)
      .max(50)
      .default([
        { when: "merge", scopes: ["merge"] },
        { paths: [".github/**"], scopes: ["write:.github"] },
      ])
      .describe("Gates LoopX opens by itself; replaces the defaults when given."),
    /**
     * The duty cycle: at most `windowHours * 60 / slotMinutes * compute` ticks that made
     * validated progress in any rolling window; `compute: 0` pauses every goal here.
     */
    quota: z
      .strictObject({
        /** The rolling window slots are counted over. */
        windowHours: z
          .number()
          .positive()
          .max(24 * 7)
          .default(24)
          .describe("Hours of the rolling window slots are counted in."),
        /** How long one slot is. */
        slotMinutes: z
          .number()
          .positive()
          .max(24 * 60)
          .default(30)
          .describe("Minutes one slot stands for."),
        /** The share of the window's slots goals may spend (0 pauses, 1 allows all). */
        compute: z
          .number()
          .min(0)
          .max(1)
          .default(1)
          .describe("Share of the window's slots a goal may spend; 0 is a hard pause."),
      })
      .prefault({})
      .describe("The duty cycle of a goal's ticks."),
    /**
     * Where todos live on GitHub. `checklist`: in the goal issue's checklist (a writer makes
     * one a sub-issue with `/loopx todo add … --issue`); `sub-issues`: every open task todo
     * also becomes a sub-issue of the goal issue once it may run (an agent's plan after its
     * approval, when approval is required).
     */
    todos: z
      .enum(["checklist", "sub-issues"])
      .default("checklist")
      .describe(
        "checklist: todos live in the goal issue's checklist; sub-issues: every task todo also becomes a sub-issue once it may run.",
      ),
    /**
     * `quiet` (the default): the status comment, edited in place, tells the story, and a new
     * comment is posted only when a person is needed, since every new comment notifies
     * everyone watching the issue and counts against GitHub's content-creation limits;
     * `sticky`: a comment per productive tick as well.
     */
    comments: z
      .enum(["sticky", "quiet"])
      .default("quiet")
      .describe(
        "quiet (default): the status comment only, plus a comment when a person is needed; sticky: also a comment per productive tick.",
      ),
    /**
     * Workflows a slice may hand long work to: the App dispatches one on the todo's branch and
     * the todo waits, spending nothing, until that run completes. Read from the default branch
     * only, so only a writer can list one.
     */
    jobs: JobsConfig,
    /** How LoopX tells the goal's owners it needs them: one comment, one reminder. */
    notify: z
      .strictObject({
        remind: z
          .string()
          .regex(/^(?:[1-9][0-9]{0,3}[mhd]|never)$/, {
            message: 'a delay like "90m", "24h" or "2d", or "never"',
          })
          .default("24h")
          .describe(
            'After how long one reminder is posted if a person is still needed ("24h", "90m", "2d"), or "never".',
          ),
        /**
         * A goal that runs unattended gets a digest comment this often while it is active (what
         * was done, evidence, spend against budget, what is next and what waits for whom), none
         * when nothing changed since the last one. Hours or days: a shorter one would be noise.
         */
        digest: z
          .string()
          .regex(/^(?:[1-9][0-9]{0,3}[hd]|never)$/, {
            message: 'an interval in hours or days like "24h" or "7d", or "never"',
          })
          .default("24h")
          .describe(
            'How often an active goal gets a digest comment ("24h", "7d"), or "never"; none is posted when nothing changed since the last one.',
          ),
      })
      .prefault({})
      .describe(
        "Notifications: one comment per occasion mentioning the owners, one reminder; a periodic digest.",
      ),
  })
  .describe("LoopX for GitHub: .github/loopx.yml");

const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** "90m", "24h", "2d" in milliseconds; null for "never" (the schema admits nothing else). */
function durationMs(text: string): number | null {
  const unit = text.slice(-1);
  if (text === "never" || !(unit === "m" || unit === "h" || unit === "d")) return null;
  return Number.parseInt(text, 10) * UNIT_MS[unit];
}

/** The reminder delay in milliseconds, or null when `notify.remind` is "never". */
export function remindDelayMs(config: Pick<LoopxConfig, "notify">): number | null {
  return durationMs(config.notify.remind);
}

/** The digest interval in milliseconds, or null when `notify.digest` is "never". */
export function digestEveryMs(config: Pick<LoopxConfig, "notify">): number | null {
  return durationMs(config.notify.digest);
}
export type LoopxConfig = z.infer<typeof LoopxConfig>;
/** The config as written in YAML, before defaults. */
export type LoopxConfigInput = z.input<typeof LoopxConfig>;
