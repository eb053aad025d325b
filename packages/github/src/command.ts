import { GateKey, HarnessName, PathGlob, Scope, ShortText, Title, TodoKey } from "@loopx/core";
import { z } from "zod";

export { HarnessName };

/** A `/loopx …` command as parsed from a comment's first line. Authority is checked later. */
export const Command = z.discriminatedUnion("name", [
  z.object({ name: z.literal("status") }),
  z.object({ name: z.literal("help") }),
  /** Starts a goal on an issue that has none, as the label does; null: the issue is the objective. */
  z.object({ name: z.literal("start"), objective: Title.nullable() }),
  z.object({ name: z.literal("approve"), gate: GateKey, note: ShortText.nullable() }),
  z.object({ name: z.literal("reject"), gate: GateKey, reason: ShortText.min(1) }),
  z.object({ name: z.literal("pause") }),
  z.object({ name: z.literal("resume") }),
  z.object({ name: z.literal("stop") }),
  z.object({ name: z.literal("run") }),
  z.object({
    name: z.literal("todo_add"),
    title: Title,
    asIssue: z.boolean(),
    /** Scopes the todo needs (`--needs deploy`): it waits for a gate covering them. */
    needs: z.array(Scope).max(10).default([]),
    /** Paths the todo touches (`paths: docs/**`): it runs beside todos that touch others. */
    paths: z.array(PathGlob).min(1).max(20).optional(),
  }),
  z.object({ name: z.literal("todo_drop"), todo: TodoKey }),
  /** A writer takes an agent's proposed todo on as theirs: its text then instructs. */
  z.object({ name: z.literal("todo_accept"), todo: TodoKey }),
  /** The commenter works on the todo themselves: LoopX skips it until it is released. */
  z.object({ name: z.literal("claim"), todo: TodoKey }),
  z.object({ name: z.literal("release"), todo: TodoKey }),
  z.object({ name: z.literal("replan") }),
  z.object({
    name: z.literal("budget"),
    /** Only the limits named in the command; the rest stay as they are. */
    limits: z.object({
      ticks: z.number().int().nonnegative().optional(),
      runnerMinutes: z.number().nonnegative().finite().optional(),
      usd: z.number().nonnegative().finite().optional(),
      tokens: z.number().int().nonnegative().optional(),
    }),
  }),
  z.object({ name: z.literal("harness"), harness: HarnessName }),
  z.object({ name: z.literal("link"), pr: z.number().int().positive() }),
]);
export type Command = z.infer<typeof Command>;

export const CommandErrorCode = z.enum([
  "missing_subcommand",
  "unknown_subcommand",
  "bad_gate_key",
  "bad_todo_key",
  "missing_reason",
  "missing_text",
  "unexpected_arguments",
  "bad_budget",
  "bad_harness",
  "bad_link",
  "too_long",
  "bad_scope",
  "bad_paths",
]);
export type CommandErrorCode = z.infer<typeof CommandErrorCode>;

/**
 * What parseCommand() found on a comment's first line: a command, or a `/loopx` line that
 * is not a valid command (the app replies with `message` and `help`). A comment without a
 * command is `null`, not an error: most comments are conversation.
 */
export const CommandParse = z.discriminatedUnion("kind", [
  z.object({
    kind: z.literal("command"),
    command: Command,
    /** `--dry-run`: say what the command would change; change nothing. */
    dryRun: z.literal(true).optional(),
  }),
  z.object({
    kind: z.literal("error"),
    code: CommandErrorCode,
    /** What was wrong and what would work, for a reply. */
    message: z.string().min(1),
    /** The usage of the subcommand when known, else the full command list. */
    help: z.string().min(1),
  }),
]);
export type CommandParse = z.infer<typeof CommandParse>;

export const COMMAND_USAGE = {
  status: "/loopx status: refresh the status comment",
  help: "/loopx help: this list (on any issue or pull request)",
  start:
    "/loopx start [objective]: start a goal on this issue, as the label does; the objective is your text, else the issue",
  approve: "/loopx approve G2 [note]: approve gate G2",
  reject: "/loopx reject G2 <reason>: reject gate G2 (a reason is required)",
  pause: "/loopx pause: stop starting new ticks until resumed",
  resume: "/loopx resume: start ticking again",
  stop: "/loopx stop: end the goal",
  run: "/loopx run: wake the loop now",
  todo: "/loopx todo add <text> [paths: docs/**, README.md] [--issue] [--needs <scope>] | /loopx todo drop T3 | /loopx todo accept T3 (an agent's proposal becomes yours)",
  claim: "/loopx claim T3: you work on T3 yourself; LoopX skips it until it is released",
  release: "/loopx release T3: let LoopX work on T3 again (its claimer or a writer)",
  replan: "/loopx replan: ask the next slice to revise the todos",
  budget: "/loopx budget ticks=N minutes=N usd=N tokens=N: set this goal's limits (any of them)",
  harness: `/loopx harness <${HarnessName.options.join("|")}>: switch the agent`,
  link: "/loopx link #N: attach pull request #N to this goal",
} as const;

/** The full command list, as sent with an unknown or malformed command. */
export const HELP_TEXT = [
  "LoopX commands (first line of a new comment, not quoted, not in code):",
  ...Object.values(COMMAND_USAGE).map((u) => `- ${u}`),
  "Add `--dry-run` at the end of a command to be told what it would change; nothing changes.",
].join("\n");
