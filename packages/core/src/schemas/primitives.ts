import { z } from "zod";

/** A point in time. Accepts a Date or an ISO-8601 string so JSON round-trips parse back. */
export const Instant = z.coerce.date();

/** The harnesses LoopX ships adapters for (packages/harness). */
export const HarnessName = z.enum(["claude-code", "codex", "shell"]);
export type HarnessName = z.infer<typeof HarnessName>;

/** Todo keys are stable, human-typable handles: `T1`, `T2`, … never reused within a goal. */
export const TodoKey = z
  .string()
  .regex(/^T[1-9][0-9]*$/, "a todo key looks like T1, T2, … (T followed by a number)");
export type TodoKey = z.infer<typeof TodoKey>;

/** Gate keys: `G1`, `G2`, … never reused within a goal. */
export const GateKey = z
  .string()
  .regex(/^G[1-9][0-9]*$/, "a gate key looks like G1, G2, … (G followed by a number)");
export type GateKey = z.infer<typeof GateKey>;

/**
 * A decision scope: the authority a gate grants and a todo requires, e.g. `merge`,
 * `deploy:production`, `write:.github`. A gate covers a todo when one of its scopes equals
 * one of the todo's required scopes or is a prefix of it ending at `:` (`deploy` covers
 * `deploy:production`).
 */
export const Scope = z
  .string()
  .regex(
    /^[a-z][a-z0-9_.-]*(:[a-zA-Z0-9_./-]+)*$/,
    "a scope is lowercase words joined by ':' (e.g. merge, deploy:production, write:.github)",
  );
export type Scope = z.infer<typeof Scope>;

export const Uuid = z.uuid();

/**
 * A repository path glob a todo declares it will touch (`src/api/**`, `docs/*.md`): `**` spans
 * directories, `*` and `?` stay within one name. Relative, no `..`, so it names paths in the
 * checkout only.
 */
export const PathGlob = z
  .string()
  .min(1)
  .max(200)
  .regex(
    /^(?!\/)(?!.*(?:^|\/)\.\.(?:\/|$))[^\0\n\r\\]+$/,
    "a path glob relative to the repository root, e.g. src/api/** (no leading / and no ..)",
  );
export type PathGlob = z.infer<typeof PathGlob>;

/**
 * Which of a goal's concurrent tick slots a tick runs in: "" for a goal's one slot, "1".."8"
 * when `parallel` allows several. Workflow concurrency groups are keyed by it.
 */
export const TickSlot = z.enum(["", "1", "2", "3", "4", "5", "6", "7", "8"]);
export type TickSlot = z.infer<typeof TickSlot>;

/** The most ticks one goal may run at once. */
export const MAX_PARALLEL = 8;

/** A GitHub login, as GitHub allows it (bots end in `[bot]`). */
export const Login = z
  .string()
  .regex(/^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})(?:\[bot\])?$/, "a GitHub login (letters, digits, -)");
export type Login = z.infer<typeof Login>;

/** Who acted. `trusted` is the edge's verdict, taken at the time of the act. */
export const Actor = z.discriminatedUnion("kind", [
  z.object({
    kind: z.literal("human"),
    login: Login,
    /** Write/maintain/admin on the repository (read from the collaborators API), or a listed owner. */
    trusted: z.boolean(),
  }),
  z.object({ kind: z.literal("agent"), tickId: Uuid, harness: z.string().min(1) }),
  z.object({ kind: z.literal("app") }),
  z.object({ kind: z.literal("system"), reason: z.string().min(1) }),
]);
export type Actor = z.infer<typeof Actor>;

/** A link to a person's act (a comment, a review): a web URL, never `javascript:` or `data:`. */
export const ActLink = z
  .string()
  .max(500)
  .regex(/^https?:\/\/[^\s"'<>]+$/, "an http(s) URL");

/** Short free text shown to people; bounded so a body or comment stays under GitHub's limit. */
export const Title = z.string().trim().min(1, "must not be empty").max(256);
export const ShortText = z.string().max(2000);

/** A git object id, abbreviated or full. */
export const Sha = z.string().regex(/^[0-9a-f]{7,64}$/, "a git SHA (7 to 64 hex digits)");

/** What a change touches, as git's `--shortstat` and GitHub's pull request counts give it. */
export const DiffSize = z.object({
  files: z.number().int().nonnegative(),
  insertions: z.number().int().nonnegative(),
  deletions: z.number().int().nonnegative(),
});
