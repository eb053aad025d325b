/**
 * What the demo's agent does in each slice. A script is a list of slices, each picked by a
 * marker in the brief's "Your todo" section (its kind, or the todo's title); the first that
 * matches runs. In the issue-fix loop the first task fixes the bug but leaves a debugging
 * line that fails lint; the repair removes it; the review todo does what the reviewer asked.
 * The same edits drive the real `claude` CLI (as Bash tool calls from the scripted model) and
 * the shell harness (a bash script).
 */
import {
  type AnthropicScriptStep,
  bash,
  type TurnRequest,
  text,
  writeFile,
} from "@loopx/sandbox/models";

export interface Slice {
  /** Plain text in the brief's "Your todo" section that says this slice is the one. */
  marker: string;
  say: string;
  /** Bash run in the working copy (the repository checked out on the todo's branch). */
  edit: string;
  claim: Record<string, unknown>;
}

const FIXED_CART = `/** The cart's total in cents: each line's unit price times its quantity, summed. */
export function total(lines) {
  let sum = 0;
  for (let i = 0; i < lines.length; i++) sum += lines[i].price * lines[i].qty;
  console.log("total", sum);
  return sum;
}
`;

/** The suite the fix adds: one line, two lines, the empty cart. */
export const TESTS = `import assert from "node:assert/strict";
import { test } from "node:test";
import { total } from "../src/cart.js";

test("an empty cart costs nothing", () => {
  assert.equal(total([]), 0);
});

test("one line is price times quantity", () => {
  assert.equal(total([{ price: 250, qty: 2 }]), 500);
});

test("every line counts", () => {
  assert.equal(total([{ price: 250, qty: 2 }, { price: 100, qty: 1 }]), 600);
});
`;

/** total() as reduce() writes it: no index to start at the wrong place. */
export const REDUCED_CART = `/** The cart's total in cents: each line's unit price times its quantity, summed. */
export function total(lines) {
  return lines.reduce((sum, line) => sum + line.price * line.qty, 0);
}
`;

const ZERO_TEST = `
test("a line with quantity 0 costs nothing", () => {
  assert.equal(total([{ price: 250, qty: 0 }, { price: 100, qty: 1 }]), 100);
});
`;

/** Bash that writes `body` to `path`. */
export const heredoc = (path: string, body: string) =>
  `cat > ${path} <<'LOOPX_EOF'\n${body}LOOPX_EOF`;

/** The issue-fix loop's slices, by todo kind. */
export const ISSUE_FIX_SLICES: Slice[] = [
  {
    marker: "(task, ",
    say: "The loop in total() starts at index 1, so the first line is skipped. Fixing it and adding tests.",
    edit: `${heredoc("src/cart.js", FIXED_CART)}\n${heredoc("test/cart.test.js", TESTS)}\nnode --test`,
    claim: {
      outcome: "completed",
      handoff: {
        done: "Fixed total(): its loop skipped the first cart line. Added tests for one and two lines.",
        next: "Wait for CI and the review of the pull request.",
        questions: [],
      },
      evidence: [{ kind: "test", summary: "node --test: 3 tests pass" }],
      continuation: { kind: "no_followup", reason: "the fix and its tests are on the branch" },
    },
  },
  {
    marker: "(repair, ",
    say: "CI's lint check fails on a console.log left in src/cart.js. Removing it.",
    edit: "sed -i '/console\\.log/d' src/cart.js\nnode --test && node scripts/lint.mjs",
    claim: {
      outcome: "completed",
      handoff: {
        done: "Removed the debugging console.log that failed the lint check.",
        next: "CI should be green now.",
        questions: [],
      },
      evidence: [{ kind: "test", summary: "node --test and scripts/lint.mjs pass" }],
      continuation: { kind: "goal_active" },
    },
  },
  {
    marker: "(review, ",
    say: "The reviewer asked for reduce() and a zero-quantity test. Doing both.",
    edit: `${heredoc("src/cart.js", REDUCED_CART)}\ncat >> test/cart.test.js <<'LOOPX_EOF'\n${ZERO_TEST}LOOPX_EOF\nnode --test && node scripts/lint.mjs`,
    claim: {
      outcome: "completed",
      handoff: {
        done: "total() now uses reduce(); a line with quantity 0 is covered by a test.",
        next: "The pull request is ready for the owner's approval.",
        questions: [],
      },
      evidence: [{ kind: "test", summary: "node --test: 4 tests pass; lint clean" }],
      continuation: { kind: "goal_active" },
    },
  },
];

/** What a slice no marker matches does: nothing. */
const OTHER: Omit<Slice, "marker"> = {
  say: "Nothing in the demo's script for this todo.",
  edit: "true",
  claim: {
    outcome: "no_change",
    handoff: { done: "Nothing: the demo scripts only its own slices.", next: "", questions: [] },
    evidence: [],
  },
};

/** The brief's "Your todo" section: from its heading to the next heading. */
export function yourTodoSection(brief: string): string {
  const from = brief.indexOf("## Your todo:");
  if (from < 0) return "";
  const end = brief.indexOf("\n## ", from);
  return brief.slice(from, end < 0 ? undefined : end);
}

/** The slice a brief (or a prompt holding one) calls for in `script`. */
export function sliceIn(script: readonly Slice[], brief: string): Omit<Slice, "marker"> {
  const section = yourTodoSection(brief);
  return script.find((s) => section.includes(s.marker)) ?? OTHER;
}

/** The result path the slice prompt names (it is also $LOOPX_RESULT). */
export function resultPathIn(prompt: string): string {
  const m = /write a JSON file at (\S+) \(also given as \$LOOPX_RESULT\)/.exec(prompt);
  if (!m?.[1]) throw new Error("the slice prompt names no result path (has slicePrompt changed?)");
  return m[1];
}

/** The scripted model's turns for `script`: edit with Bash, write the result file, stop. */
export function modelTurns(script: readonly Slice[]): AnthropicScriptStep[] {
  const sliceFor = (req: TurnRequest) => sliceIn(script, req.prompt);
  return [
    (req) => ({ content: [text(sliceFor(req).say), bash(sliceFor(req).edit)] }),
    (req) => ({
      content: [writeFile(resultPathIn(req.prompt), JSON.stringify(sliceFor(req).claim))],
    }),
    { content: [text("Done: the result is written.")] },
  ];
}

const writeResult = (claim: Record<string, unknown>) =>
  `cat > "$LOOPX_RESULT" <<'LOOPX_EOF'\n${JSON.stringify(claim)}\nLOOPX_EOF`;

/** The shell harness's command: the same slices, picked from $LOOPX_BRIEF_MD. */
export function shellAgentScript(script: readonly Slice[]): string {
  const branches = script.map((s, i) => {
    if (s.marker.includes("'")) throw new Error(`a slice marker cannot hold a quote: ${s.marker}`);
    return `${i === 0 ? "if" : "elif"} printf '%s' "$section" | grep -qF -- '${s.marker}'; then\n${s.edit}\n${writeResult(s.claim)}`;
  });
  return `#!/usr/bin/env bash
# The demo's scripted agent for the shell harness (written by npm run demo).
set -eo pipefail
section="$(awk '/^## Your todo:/ { on = 1; print; next } on && /^## / { exit } on' "$LOOPX_BRIEF_MD")"
${branches.join("\n")}
else
${writeResult(OTHER.claim)}
fi
`;
}
