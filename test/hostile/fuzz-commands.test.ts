import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BOT_TRIGGERS, CommandParse, parseCommand } from "../../packages/github/src/index.ts";

/**
 * Fuzzed comment bodies through parseCommand (packages/github): whatever a stranger types, the
 * parser never throws, answers conversation (null), a valid command, or an error with a
 * message and help to reply with — and a reply never echoes a ping back.
 */
const MENTION = /[@\uFF20][A-Za-z0-9_]/;
const SUBCOMMANDS = [
  "status",
  "help",
  "approve",
  "reject",
  "pause",
  "resume",
  "stop",
  "run",
  "todo",
  "replan",
  "budget",
  "harness",
  "link",
];
const word = fc.oneof(
  fc.constantFrom(...SUBCOMMANDS, ...BOT_TRIGGERS, "G1", "g0", "T2", "#12", "add", "drop"),
  fc.constantFrom("ticks=5", "usd=$1.5", "tokens=1e9", "minutes=-1", "--issue", "/loopx"),
  fc.string({ maxLength: 12 }),
  fc.string({ unit: "grapheme", maxLength: 8 }),
);
const commandLine = fc.array(word, { maxLength: 8 }).map((words) => `/loopx ${words.join(" ")}`);
const anyBody = fc.oneof(
  fc.string({ maxLength: 200 }),
  fc.string({ unit: "binary", maxLength: 200 }),
  commandLine,
  fc.tuple(commandLine, fc.string({ maxLength: 100 })).map(([a, b]) => `${a}\n${b}`),
);

describe("hostile: fuzzed /loopx commands", () => {
  it("never throw; answer null, a valid command, or an error with a message and help", () => {
    fc.assert(
      fc.property(anyBody, (body) => {
        const parsed = parseCommand(body);
        if (parsed === null) return;
        // The contract the app replies from: a schema-valid command or a complete error.
        expect(CommandParse.safeParse(parsed).success).toBe(true);
        if (parsed.kind === "error") {
          expect(parsed.message.trim()).not.toBe("");
          expect(parsed.help.trim()).not.toBe("");
        }
      }),
      { numRuns: 2000 },
    );
  });

  it("a /loopx first line is always answered (command or error), never ignored", () => {
    fc.assert(
      fc.property(commandLine, (line) => {
        expect(parseCommand(line)).not.toBeNull();
      }),
      { numRuns: 1000 },
    );
  });

  it("an error echoes user text without pings or bots' trigger phrases", () => {
    const hostileWord = fc.constantFrom(...BOT_TRIGGERS, "@alice", "＠team/admins", "@@x");
    fc.assert(
      fc.property(fc.constantFrom(...SUBCOMMANDS), hostileWord, (sub, bad) => {
        const parsed = parseCommand(`/loopx ${sub} ${bad} ${bad}`);
        if (parsed?.kind !== "error") return;
        expect(parsed.message).not.toMatch(MENTION);
      }),
      { numRuns: 300 },
    );
    // One case the property must reach: an unknown subcommand made of a bot's trigger.
    const refused = parseCommand("/loopx @claude fix everything");
    expect(refused?.kind).toBe("error");
    if (refused?.kind === "error") expect(refused.message).not.toMatch(MENTION);
  });

  it("quoted, fenced, indented or inline-code commands are conversation", () => {
    const wrap = fc.constantFrom(
      (c: string) => `> ${c}`,
      (c: string) => `\`${c}\``,
      (c: string) => `    ${c}`,
      (c: string) => `\t${c}`,
      (c: string) => `\`\`\`\n${c}\n\`\`\``,
      (c: string) => `please run ${c}`,
    );
    fc.assert(
      fc.property(commandLine, wrap, (line, w) => {
        expect(parseCommand(w(line))).toBeNull();
      }),
      { numRuns: 1000 },
    );
  });

  it("an oversized command line is refused as too long, not parsed", () => {
    const parsed = parseCommand(`/loopx approve G1 ${"x".repeat(70_000)}`);
    expect(parsed).toMatchObject({ kind: "error", code: "too_long" });
  });
});
