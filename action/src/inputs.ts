import { HarnessName, TickSlot } from "@loopx/core";
import { z } from "zod";

/** The phases of one tick (see docs/architecture.md, "The tick"). */
export const Phase = z.enum(["wake", "ask", "agent", "report"]);
export type Phase = z.infer<typeof Phase>;

export { HarnessName };

/** `needs.agent.result` as the workflow hands it to the report phase. */
export const JobResult = z.enum(["success", "failure", "cancelled", "skipped"]);

const envName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "an environment variable name");

/** Comma- or newline-separated names, as workflow authors write lists in `with:`. */
const nameList = z
  .string()
  .transform((s) =>
    s
      .split(/[\s,]+/)
      .map((n) => n.trim())
      .filter((n) => n !== ""),
  )
  .pipe(z.array(envName));

const positiveNumber = z.coerce.number().positive().finite();

/** The action's inputs as action.yml declares them; the single source of their types. */
export const ActionInputFields = z.object({
  phase: Phase,
  /** Base URL of the LoopX App's tick API. */
  "api-url": z.url().optional(),
  /** The OIDC audience the App expects: by default its own URL, the `api-url`. */
  audience: z.string().min(1).optional(),
  /** The goal's issue number (ask). */
  goal: z.coerce.number().int().positive().optional(),
  /** The caller's tick slot, "1".."8", or empty for a goal's one slot (ask). */
  slot: TickSlot.optional(),
  /** Where the phases write and read their files (ask.json, lease.json, result.json, bundle). */
  "tick-dir": z.string().min(1).optional(),
  /** The repository working copy the agent works in (agent). */
  workdir: z.string().min(1).optional(),
  /** Overrides the harness the App chose (agent). */
  harness: HarnessName.optional(),
  /** The command the shell harness runs (agent). */
  "shell-command": z.string().min(1).optional(),
  /** Model for claude-code or codex (agent). */
  model: z.string().min(1).optional(),
  /**
   * Codex prices by model id (JSON, USD per million tokens) laid over the shipped table;
   * codex reports tokens only (agent).
   */
  "codex-prices": z.string().min(1).optional(),
  /** Environment variables handed to the harness, e.g. ANTHROPIC_API_KEY (agent). */
  "harness-env": nameList.optional(),
  /** A read-only token to fetch the todo branch when the checkout lacks it (agent). */
  token: z.string().min(1).optional(),
  /** Lower the App's cost limits for this tick (ask): USD and runner minutes. */
  "max-usd": positiveNumber.optional(),
  "max-minutes": positiveNumber.optional(),
  /** `needs.agent.result`, so a crashed agent job is reported as such (report). */
  "agent-result": JobResult.optional(),
  /** Parse and explain what would happen; send nothing. */
  "dry-run": z.stringbool().default(false),
});

/** The inputs, checked across fields, with the audience defaulted. */
export const ActionInput = ActionInputFields.superRefine((input, ctx) => {
  if (input.phase === "ask" && input.goal === undefined) {
    ctx.addIssue({
      code: "custom",
      path: ["goal"],
      message: `phase "ask" needs the goal's issue number: pass \`goal: \${{ inputs.goal }}\``,
    });
  }
  const talksToApp = input.phase !== "agent" && !input["dry-run"];
  if (talksToApp && input["api-url"] === undefined) {
    ctx.addIssue({
      code: "custom",
      path: ["api-url"],
      message: `phase "${input.phase}" needs the LoopX App's URL: pass \`api-url: \${{ inputs.api-url }}\` (e.g. https://loopx.example.com)`,
    });
  }
})
  // Each deployment's tokens are its own: the audience defaults to the App's URL, so a token
  // minted for one LoopX deployment is refused by every other.
  .transform((input) => ({
    ...input,
    audience: input.audience ?? input["api-url"]?.replace(/\/+$/, "") ?? "",
  }));
export type ActionInput = z.infer<typeof ActionInput>;
