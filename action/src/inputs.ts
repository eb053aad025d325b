import { z } from "zod";

/** The phases of one tick (see architecture.md, "The tick"). */
export const Phase = z.enum(["wake", "ask", "agent", "report"]);
export type Phase = z.infer<typeof Phase>;

/** The action's inputs as action.yml declares them; the single source of their types. */
export const ActionInput = z
  .object({
    phase: Phase,
    /** Base URL of the LoopX App's tick API. */
    "api-url": z.url().optional(),
    /** The OIDC audience the App expects. */
    audience: z.string().min(1).default("loopx"),
    /** The goal's issue number (ask and report). */
    goal: z.coerce.number().int().positive().optional(),
    /** Parse and explain what would happen; send nothing. */
    "dry-run": z.stringbool().default(false),
  })
  .superRefine((input, ctx) => {
    if ((input.phase === "ask" || input.phase === "report") && input.goal === undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["goal"],
        message: `phase "${input.phase}" needs the goal's issue number: pass \`goal: \${{ inputs.goal }}\``,
      });
    }
  });
export type ActionInput = z.infer<typeof ActionInput>;
