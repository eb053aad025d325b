import { describe, expect, it } from "vitest";
import { type Command, CommandParse, HELP_TEXT, parseCommand } from "../src/index.ts";

const commands: [string, Command][] = [
  ["/loopx status", { name: "status" }],
  ["/loopx help", { name: "help" }],
  ["/loopx pause", { name: "pause" }],
  ["/loopx resume", { name: "resume" }],
  ["/loopx stop", { name: "stop" }],
  ["/loopx run", { name: "run" }],
  ["/loopx replan", { name: "replan" }],
  ["/loopx approve G2", { name: "approve", gate: "G2", note: null }],
  ["/loopx approve G2 ship it, thanks", { name: "approve", gate: "G2", note: "ship it, thanks" }],
  ["/loopx approve g12", { name: "approve", gate: "G12", note: null }],
  ["/loopx reject G2 breaks the API", { name: "reject", gate: "G2", reason: "breaks the API" }],
  [
    "/loopx todo add Fix the `parse` bug",
    { name: "todo_add", title: "Fix the `parse` bug", asIssue: false, needs: [] },
  ],
  [
    "/loopx todo add Write docs --issue",
    { name: "todo_add", title: "Write docs", asIssue: true, needs: [] },
  ],
  [
    "/loopx todo add --issue Write docs",
    { name: "todo_add", title: "Write docs", asIssue: true, needs: [] },
  ],
  [
    "/loopx todo add Publish the docs --needs deploy --needs write:.github",
    {
      name: "todo_add",
      title: "Publish the docs",
      asIssue: false,
      needs: ["deploy", "write:.github"],
    },
  ],
  [
    "/loopx todo add Publish --issue --needs deploy:production",
    { name: "todo_add", title: "Publish", asIssue: true, needs: ["deploy:production"] },
  ],
  [
    "/loopx todo add Write the docs paths: docs/**, README.md",
    {
      name: "todo_add",
      title: "Write the docs",
      asIssue: false,
      needs: [],
      paths: ["docs/**", "README.md"],
    },
  ],
  [
    "/loopx todo add Write the docs Paths: `docs/**` `README.md` --issue",
    {
      name: "todo_add",
      title: "Write the docs",
      asIssue: true,
      needs: [],
      paths: ["docs/**", "README.md"],
    },
  ],
  [
    "/loopx todo add Ship the API paths: src/api/*.ts --needs deploy",
    {
      name: "todo_add",
      title: "Ship the API",
      asIssue: false,
      needs: ["deploy"],
      paths: ["src/api/*.ts"],
    },
  ],
  [
    "/loopx todo add Ship the API --needs deploy paths:src/api/**,src/api/**",
    {
      name: "todo_add",
      title: "Ship the API",
      asIssue: false,
      needs: ["deploy"],
      paths: ["src/api/**"],
    },
  ],
  // Only the last `paths:` starts the clause: an earlier one is part of the title.
  [
    "/loopx todo add Document paths: and globs paths: docs/**",
    {
      name: "todo_add",
      title: "Document paths: and globs",
      asIssue: false,
      needs: [],
      paths: ["docs/**"],
    },
  ],
  ["/loopx todo drop T3", { name: "todo_drop", todo: "T3" }],
  ["/loopx claim T3", { name: "claim", todo: "T3" }],
  ["/loopx claim t3", { name: "claim", todo: "T3" }],
  ["/loopx release T12", { name: "release", todo: "T12" }],
  ["/loopx todo accept t3", { name: "todo_accept", todo: "T3" }],
  ["/loopx todo drop t3", { name: "todo_drop", todo: "T3" }],
  ["/loopx budget ticks=10", { name: "budget", limits: { ticks: 10 } }],
  [
    "/loopx budget ticks=10 minutes=90.5 usd=$12.50 tokens=500000",
    { name: "budget", limits: { ticks: 10, runnerMinutes: 90.5, usd: 12.5, tokens: 500000 } },
  ],
  ["/loopx harness codex", { name: "harness", harness: "codex" }],
  ["/loopx harness Claude-Code", { name: "harness", harness: "claude-code" }],
  ["/loopx link #45", { name: "link", pr: 45 }],
  // Tolerated variations: what a person on a phone or in a browser really sends.
  ["/LoopX Status", { name: "status" }],
  ["   /loopx status", { name: "status" }],
  ["/loopx status   ", { name: "status" }],
  ["/loopx   approve    G2    ok", { name: "approve", gate: "G2", note: "ok" }],
  ["/loopx approve G2\r\nsecond line is conversation", { name: "approve", gate: "G2", note: null }],
  ["\n\n/loopx run", { name: "run" }],
  ["\uFEFF/loopx run", { name: "run" }],
  ["/loopx stop\n\n/loopx approve G1", { name: "stop" }],
];

describe("parseCommand: commands", () => {
  it.each(commands)("%j → %o", (body, command) => {
    const parsed = parseCommand(body);
    expect(parsed).toEqual({ kind: "command", command });
    // The result is a valid member of the published union.
    expect(CommandParse.safeParse(parsed).success).toBe(true);
  });
});

const notCommands: [string, string][] = [
  ["plain conversation", "Looks good to me!"],
  ["a command on line 2", "Thanks!\n/loopx approve G2"],
  ["a command on line 2 after CRLF", "Thanks!\r\n/loopx approve G2"],
  ["a quoted command", "> /loopx approve G2"],
  ["a quoted reply hint", "> reply `/loopx approve G2` to approve\n\nsure"],
  ["an indented quote", "  > /loopx approve G2"],
  ["inline code", "`/loopx approve G2`"],
  ["inline code after text", "reply `/loopx approve G2`"],
  ["a fenced block", "```\n/loopx approve G2\n```"],
  ["a tilde fence", "~~~\n/loopx approve G2\n~~~"],
  ["an indented code block (4 spaces)", "    /loopx approve G2"],
  ["an indented code block (tab)", "\t/loopx approve G2"],
  ["no space after the prefix", "/loopxapprove G2"],
  ["another prefix", "/loopy approve G2"],
  ["the prefix mid-line", "please /loopx approve G2"],
  ["a zero-width space after the slash", "/\u200bloopx approve G2"],
  ["a division slash lookalike", "\u2215loopx approve G2"],
  ["a fullwidth solidus lookalike", "\uFF0Floopx approve G2"],
  ["a fraction slash lookalike", "\u2044loopx approve G2"],
  ["a Cyrillic o lookalike", "/lо\u043Epx approve G2"],
  ["a backslash", "\\loopx approve G2"],
  ["an HTML comment", "<!-- /loopx approve G2 -->"],
  ["an empty body", ""],
  ["whitespace only", "  \n\t\n"],
];

describe("parseCommand: not commands", () => {
  it.each(notCommands)("%s → null", (_name, body) => {
    expect(parseCommand(body)).toBeNull();
  });
});

const errors: [string, string, string, RegExp][] = [
  ["a bare prefix", "/loopx", "missing_subcommand", /what LoopX should do/],
  [
    "an unknown subcommand",
    "/loopx deploy now",
    "unknown_subcommand",
    /"deploy" is not a LoopX command/,
  ],
  ["approve G0", "/loopx approve G0", "bad_gate_key", /G1, G2, …/],
  ["approve X", "/loopx approve X", "bad_gate_key", /"X" is not a gate key.*G1, G2/],
  ["approve without a key", "/loopx approve", "bad_gate_key", /No gate given/],
  ["approve with a todo key", "/loopx approve T2", "bad_gate_key", /gate key/],
  [
    "approve with trailing punctuation",
    "/loopx approve G2, thanks",
    "bad_gate_key",
    /"G2," is not/,
  ],
  ["reject without a reason", "/loopx reject G2", "missing_reason", /needs a reason/],
  ["reject with blank reason", "/loopx reject G2    ", "missing_reason", /reason/],
  ["reject with a bad key", "/loopx reject G02 nope", "bad_gate_key", /gate key/],
  [
    "trailing junk after pause",
    "/loopx pause please",
    "unexpected_arguments",
    /pause takes no arguments/,
  ],
  [
    "trailing junk after status",
    "/loopx status now!",
    "unexpected_arguments",
    /takes no arguments/,
  ],
  ["todo without a verb", "/loopx todo", "unknown_subcommand", /add, drop or accept/],
  ["todo with an unknown verb", "/loopx todo edit T1", "unknown_subcommand", /add, drop or accept/],
  ["todo add without text", "/loopx todo add", "missing_text", /what the todo is/],
  ["todo add with only the flag", "/loopx todo add --issue", "missing_text", /todo/],
  ["todo add too long", `/loopx todo add ${"x".repeat(300)}`, "too_long", /256/],
  [
    "todo add with a bad scope",
    "/loopx todo add Ship --needs Deploy Now",
    "bad_scope",
    /not a scope/,
  ],
  ["todo add with --needs and no scope", "/loopx todo add Ship --needs", "bad_scope", /one scope/],
  [
    "todo add with text after a scope",
    "/loopx todo add Ship --needs deploy now",
    "bad_scope",
    /at the end/,
  ],
  ["todo add with only a scope", "/loopx todo add --needs deploy", "missing_text", /todo/],
  [
    "todo add with an absolute path",
    "/loopx todo add Docs paths: /etc/passwd",
    "bad_paths",
    /repository root, without a leading \/.*e\.g\. docs\/\*\*/,
  ],
  [
    "todo add with a path out of the repository",
    "/loopx todo add Docs paths: docs/**, ../secrets",
    "bad_paths",
    /"\.\.\/secrets" is not a path in this repository/,
  ],
  [
    "todo add with ./",
    "/loopx todo add Docs paths: ./docs/**",
    "bad_paths",
    /without it \(docs\/\*\*\)/,
  ],
  [
    "todo add with paths: and no glob",
    "/loopx todo add Docs paths:",
    "bad_paths",
    /at least one path/,
  ],
  [
    "todo add with paths: and only a flag",
    "/loopx todo add Docs paths: --issue",
    "bad_paths",
    /at least one path/,
  ],
  [
    "todo add with a backslash path",
    "/loopx todo add Docs paths: src\\api",
    "bad_paths",
    /not a path in this repository/,
  ],
  ["todo add with only paths", "/loopx todo add paths: docs/**", "missing_text", /todo/],
  ["todo drop without a key", "/loopx todo drop", "bad_todo_key", /T1, T2/],
  ["claim without a key", "/loopx claim", "bad_todo_key", /T1, T2/],
  ["claim a gate", "/loopx claim G1", "bad_todo_key", /"G1" is not a todo key/],
  ["release two", "/loopx release T1 T2", "unexpected_arguments", /one todo/],
  ["todo drop a gate", "/loopx todo drop G1", "bad_todo_key", /"G1" is not a todo key/],
  ["todo drop two", "/loopx todo drop T1 T2", "unexpected_arguments", /one todo/],
  ["todo accept without a key", "/loopx todo accept", "bad_todo_key", /one todo/],
  ["todo accept a gate key", "/loopx todo accept G1", "bad_todo_key", /not a todo key/],
  ["budget without limits", "/loopx budget", "bad_budget", /at least one/],
  ["budget unknown limit", "/loopx budget days=3", "bad_budget", /"days=3" is not a limit/],
  ["budget negative", "/loopx budget ticks=-1", "bad_budget", /whole number/],
  ["budget fractional ticks", "/loopx budget ticks=1.5", "bad_budget", /whole number/],
  ["budget text", "/loopx budget usd=lots", "bad_budget", /must be a number/],
  ["budget twice", "/loopx budget usd=1 usd=2", "bad_budget", /given twice/],
  ["budget huge", `/loopx budget tokens=${"9".repeat(30)}`, "bad_budget", /whole number/],
  ["an unknown harness", "/loopx harness gpt", "bad_harness", /claude-code, codex, shell/],
  ["harness without a name", "/loopx harness", "bad_harness", /exactly one/],
  ["link without #", "/loopx link 45", "bad_link", /#N/],
  ["link to zero", "/loopx link #0", "bad_link", /#N/],
  ["link to two", "/loopx link #1 #2", "bad_link", /#N/],
  ["a very long line", `/loopx approve G1 ${"x".repeat(5000)}`, "too_long", /at most/],
];

describe("parseCommand: errors", () => {
  it.each(errors)("%s → %s error", (_name, body, code, message) => {
    const parsed = parseCommand(body);
    expect(parsed?.kind).toBe("error");
    if (parsed?.kind !== "error") return;
    expect(parsed.code).toBe(code);
    expect(parsed.message).toMatch(message);
    expect(parsed.help.length).toBeGreaterThan(0);
    expect(CommandParse.safeParse(parsed).success).toBe(true);
  });

  it("a trailing --dry-run marks the command, which parses as without it", () => {
    expect(parseCommand("/loopx approve G2 ship it --dry-run")).toEqual({
      kind: "command",
      command: { name: "approve", gate: "G2", note: "ship it" },
      dryRun: true,
    });
    expect(parseCommand("/loopx todo add Cache the layout --dry-run\nmore text")).toMatchObject({
      command: { name: "todo_add", title: "Cache the layout" },
      dryRun: true,
    });
    // Not at the end of the line, it is text like any other; a malformed command stays one.
    expect(parseCommand("/loopx todo add Explain --dry-run flags")).toEqual({
      kind: "command",
      command: { name: "todo_add", title: "Explain --dry-run flags", asIssue: false, needs: [] },
    });
    expect(parseCommand("/loopx approve --dry-run")?.kind).toBe("error");
    expect(HELP_TEXT).toContain("--dry-run");
  });

  it("an unknown subcommand carries the full help text", () => {
    const parsed = parseCommand("/loopx frobnicate");
    expect(parsed).toMatchObject({ kind: "error", help: HELP_TEXT });
    expect(HELP_TEXT).toContain("/loopx approve G2 [note]");
    expect(HELP_TEXT).toContain("/loopx reject G2 <reason>");
  });

  it("echoes user text neutralised, so a refusal never pings or carries a command", () => {
    const parsed = parseCommand("/loopx approve @claude");
    expect(parsed?.kind).toBe("error");
    if (parsed?.kind !== "error") return;
    expect(parsed.message).not.toMatch(/@claude/);
    expect(parsed.message).toContain("@\u200bclaude");
  });
});
