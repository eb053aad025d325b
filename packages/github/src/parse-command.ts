import { GateKey, Scope, TodoKey } from "@loopx/core";
import {
  COMMAND_USAGE,
  type Command,
  type CommandErrorCode,
  type CommandParse,
  HarnessName,
  HELP_TEXT,
} from "./command.ts";
import { neutralizeInline } from "./neutralize.ts";
import { takePathsClause } from "./paths-clause.ts";

// `/loopx` must be followed by whitespace or the end of the line: `/loopxapprove` is some
// other text, and a zero-width or lookalike character means the text was neutralised or
// is an imitation — neither is a command.
const PREFIX = /^\/loopx(?=\s|$)/i;
// More than three spaces (or a tab) makes an indented code block in Markdown.
const INDENT = /^( {0,3})(?! |\t)/;
const MAX_LINE = 4000;

/** User text echoed in a reply: neutralised so a reply never pings or carries a command. */
function echo(text: string | undefined): string {
  return neutralizeInline(text ?? "", 40);
}

function error(code: CommandErrorCode, message: string, help: string = HELP_TEXT): CommandParse {
  return { kind: "error", code, message, help };
}

function ok(command: Command): CommandParse {
  return { kind: "command", command };
}

function gateKey(token: string | undefined): string | null {
  const key = GateKey.safeParse((token ?? "").toUpperCase());
  return key.success ? key.data : null;
}

const GATE_FORMAT = "A gate key looks like G1, G2, … (G followed by a number from 1).";
const TODO_FORMAT = "A todo key looks like T1, T2, … (T followed by a number from 1).";

/** The first visible line of a comment: leading blank lines do not show, so they do not count. */
function firstLine(body: string): string | null {
  const text = body.replace(/^\uFEFF/, "");
  for (const line of text.split(/\r\n|\n|\r/)) {
    if (line.trim() !== "") return line;
  }
  return null;
}

function parseBudget(args: string[]): CommandParse {
  const usage = COMMAND_USAGE.budget;
  if (args.length === 0) return error("bad_budget", "Name at least one limit.", usage);
  const limits: { ticks?: number; runnerMinutes?: number; usd?: number; tokens?: number } = {};
  for (const arg of args) {
    const m = /^([a-z]+)=(\S+)$/i.exec(arg);
    const key = m?.[1]?.toLowerCase();
    const raw = m?.[2] ?? "";
    const field =
      key === "ticks" || key === "usd" || key === "tokens"
        ? key
        : key === "minutes"
          ? "runnerMinutes"
          : null;
    if (field === null) {
      return error(
        "bad_budget",
        `"${echo(arg)}" is not a limit; use ticks=, minutes=, usd=, tokens=.`,
        usage,
      );
    }
    if (limits[field] !== undefined) {
      return error("bad_budget", `${echo(key)} is given twice.`, usage);
    }
    const whole = field === "ticks" || field === "tokens";
    const pattern = whole ? /^\d+$/ : field === "usd" ? /^\$?\d+(\.\d+)?$/ : /^\d+(\.\d+)?$/;
    const value = Number(raw.replace(/^\$/, ""));
    if (!pattern.test(raw) || !Number.isFinite(value) || (whole && !Number.isSafeInteger(value))) {
      const kind = whole ? "a whole number" : "a number";
      return error("bad_budget", `${echo(key)} must be ${kind} (got "${echo(raw)}").`, usage);
    }
    limits[field] = value;
  }
  return ok({ name: "budget", limits });
}

function parseTodo(rest: string, args: string[]): CommandParse {
  const usage = COMMAND_USAGE.todo;
  const verb = args[0]?.toLowerCase();
  if (verb === "drop" || verb === "accept") {
    if (args.length !== 2) {
      return error(
        args.length < 2 ? "bad_todo_key" : "unexpected_arguments",
        `Name one todo. ${TODO_FORMAT}`,
        usage,
      );
    }
    const key = TodoKey.safeParse((args[1] ?? "").toUpperCase());
    if (!key.success)
      return error("bad_todo_key", `"${echo(args[1])}" is not a todo key. ${TODO_FORMAT}`, usage);
    return ok({ name: verb === "drop" ? "todo_drop" : "todo_accept", todo: key.data });
  }
  if (verb === "add") {
    let words = rest
      .replace(/^add\b/i, "")
      .trim()
      .split(/\s+/)
      .filter(Boolean);
    const flag = (w: string | undefined) => w?.toLowerCase() === "--issue";
    let asIssue = false;
    if (flag(words[words.length - 1])) {
      asIssue = true;
      words = words.slice(0, -1);
    } else if (flag(words[0])) {
      asIssue = true;
      words = words.slice(1);
    }
    // `paths: docs/**, README.md` says what the todo touches, so it may run beside others.
    const clause = takePathsClause(words);
    if (!clause.ok) return error("bad_paths", clause.message, usage);
    words = clause.words;
    // `--needs <scope>` (repeatable) closes the line; the text before it is the title.
    const needs: string[] = [];
    const at = words.findIndex((w) => w.toLowerCase() === "--needs");
    if (at >= 0) {
      const tail = words.slice(at);
      words = words.slice(0, at);
      for (let i = 0; i < tail.length; i += 2) {
        const scope = tail[i + 1];
        if (tail[i]?.toLowerCase() !== "--needs" || scope === undefined) {
          return error(
            "bad_scope",
            `--needs takes one scope each time, at the end (got "${echo(tail.join(" "))}"): e.g. /loopx todo add Publish the docs --needs deploy`,
            usage,
          );
        }
        if (!Scope.safeParse(scope).success) {
          return error(
            "bad_scope",
            `"${echo(scope)}" is not a scope: lowercase words joined by ':' (e.g. merge, deploy:production, write:.github).`,
            usage,
          );
        }
        if (!needs.includes(scope)) needs.push(scope);
      }
      if (needs.length > 10) return error("bad_scope", "A todo needs at most 10 scopes.", usage);
      if (flag(words[words.length - 1])) {
        asIssue = true;
        words = words.slice(0, -1);
      }
    }
    const title = words.join(" ");
    if (title === "")
      return error("missing_text", "Say what the todo is: /loopx todo add <text>.", usage);
    if (title.length > 256)
      return error("too_long", "A todo title is at most 256 characters.", usage);
    const paths = clause.paths.length > 0 ? { paths: clause.paths } : {};
    return ok({ name: "todo_add", title, asIssue, needs, ...paths });
  }
  return error("unknown_subcommand", "todo takes add, drop or accept.", usage);
}

function parseOneTodo(sub: "claim" | "release", args: string[]): CommandParse {
  const usage = COMMAND_USAGE[sub];
  if (args.length !== 1) {
    return error(
      args.length === 0 ? "bad_todo_key" : "unexpected_arguments",
      `Name one todo. ${TODO_FORMAT}`,
      usage,
    );
  }
  const key = TodoKey.safeParse((args[0] ?? "").toUpperCase());
  if (!key.success)
    return error("bad_todo_key", `"${echo(args[0])}" is not a todo key. ${TODO_FORMAT}`, usage);
  return ok({ name: sub, todo: key.data });
}

/**
 * Reads a `/loopx` command from a newly created comment. Only the first visible line
 * counts, and only when it starts with `/loopx` (up to three spaces in): a quoted line
 * (`>`), a fenced or indented code block, an inline code span, or a command further down
 * the comment is conversation, not a command — so quoting "reply `/loopx approve G2`" can
 * never approve. Returns null for conversation, an error (with help) for a malformed
 * `/loopx` line, or the command. The prefix and subcommand are case-insensitive and keys
 * are upper-cased (`g2` is G2); nothing else is guessed. A trailing `--dry-run` asks what
 * the command would change, without changing it (`dryRun` on the command).
 */
export function parseCommand(commentBody: string): CommandParse | null {
  const line = firstLine(commentBody);
  if (line === null || !DRY_RUN.test(line)) return parseLine(line);
  const parsed = parseLine(line.replace(DRY_RUN, ""));
  return parsed?.kind === "command" ? { ...parsed, dryRun: true } : parsed;
}

const DRY_RUN = /[ \t]+--dry-run[ \t]*$/;

function parseLine(line: string | null): CommandParse | null {
  if (line === null) return null;
  const indent = INDENT.exec(line);
  if (indent === null) return null;
  const text = line.slice(indent[0].length);
  if (!PREFIX.test(text)) return null;
  if (text.length > MAX_LINE)
    return error("too_long", `A command line is at most ${MAX_LINE} characters.`);
  const rest = text.slice("/loopx".length).trim();
  const args = rest.split(/\s+/).filter(Boolean);
  const sub = args[0]?.toLowerCase();
  const tail = rest.slice(args[0]?.length ?? 0).trim();
  const more = args.slice(1);
  if (sub === undefined) return error("missing_subcommand", "Say what LoopX should do.");

  switch (sub) {
    case "status":
    case "help":
    case "pause":
    case "resume":
    case "stop":
    case "run":
    case "replan":
      if (more.length > 0) {
        return error(
          "unexpected_arguments",
          `${sub} takes no arguments (got "${echo(tail)}").`,
          COMMAND_USAGE[sub],
        );
      }
      return ok({ name: sub });
    case "approve":
    case "reject": {
      const usage = COMMAND_USAGE[sub];
      const gate = gateKey(more[0]);
      if (gate === null) {
        const got =
          more[0] === undefined ? "No gate given." : `"${echo(more[0])}" is not a gate key.`;
        return error("bad_gate_key", `${got} ${GATE_FORMAT}`, usage);
      }
      const words = tail.slice((more[0] ?? "").length).trim();
      if (words.length > 2000)
        return error("too_long", "A note or reason is at most 2000 characters.", usage);
      if (sub === "approve")
        return ok({ name: "approve", gate, note: words === "" ? null : words });
      if (words === "") {
        return error(
          "missing_reason",
          `Rejecting needs a reason: /loopx reject ${gate} <reason>.`,
          usage,
        );
      }
      return ok({ name: "reject", gate, reason: words });
    }
    case "start": {
      if (tail.length > 256) {
        return error("too_long", "An objective is at most 256 characters.", COMMAND_USAGE.start);
      }
      return ok({ name: "start", objective: tail === "" ? null : tail });
    }
    case "todo":
      return parseTodo(tail, more);
    case "claim":
    case "release":
      return parseOneTodo(sub, more);
    case "budget":
      return parseBudget(more);
    case "harness": {
      const usage = COMMAND_USAGE.harness;
      if (more.length !== 1) return error("bad_harness", "Name exactly one harness.", usage);
      const name = HarnessName.safeParse((more[0] ?? "").toLowerCase());
      if (!name.success) {
        return error(
          "bad_harness",
          `Unknown harness "${echo(more[0])}"; use one of ${HarnessName.options.join(", ")}.`,
          usage,
        );
      }
      return ok({ name: "harness", harness: name.data });
    }
    case "link": {
      const usage = COMMAND_USAGE.link;
      const m = more.length === 1 ? /^#([1-9][0-9]{0,9})$/.exec(more[0] ?? "") : null;
      const pr = m?.[1] === undefined ? Number.NaN : Number(m[1]);
      if (!Number.isSafeInteger(pr))
        return error("bad_link", "Name one pull request as #N.", usage);
      return ok({ name: "link", pr });
    }
    default:
      return error("unknown_subcommand", `"${echo(args[0])}" is not a LoopX command.`);
  }
}
