import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import {
  AWAITING_PULL_REQUEST,
  agentClaimSummary,
  decide,
  type GoalState,
  goalStateWords,
  testRunEvidence,
  todoStateWords,
} from "@loopx/core";
import { describe, expect, it } from "vitest";
import { renderPrHandoff, renderTickComment } from "../src/index.ts";
import { gate, goalState, NOW, TICK_ID, todo } from "./fixtures.ts";

const SANDBOX = "http://127.0.0.1:9999/_html";
const TAP = readFileSync(
  resolve(import.meta.dirname, "../../core/test/fixtures/test-output/node-test-pass.txt"),
  "utf8",
).split("\n-----\n")[1];

function evidence(id: number, kind: string, summary: string, extra: Record<string, unknown> = {}) {
  return {
    id: `22222222-2222-4222-8222-22222222222${id}`,
    todo: "T2",
    tickId: TICK_ID,
    kind,
    summary,
    url: null,
    observedAt: NOW,
    ...extra,
  };
}

/** Tick #1 worked T2, which finished on its branch; PR #2 waits to merge. */
function finishedOnBranch(): GoalState {
  const base = goalState();
  const validation = testRunEvidence({
    command: "npm test",
    exitCode: 0,
    passed: true,
    output: `exit 0\n${TAP}`,
  });
  return goalState({
    todos: [todo("T2", "Cache the parser", "blocked", 1, { blockedReason: AWAITING_PULL_REQUEST })],
    gates: [],
    ticks: base.ticks.map((t) => ({ ...t, todo: "T2", outcome: "progress" })),
    evidence: [
      evidence(1, "commit", "Cache parsed ASTs", { sha: "a".repeat(40) }),
      evidence(2, "test", validation),
      // The same run told twice (an older harness also sent it as evidence).
      evidence(3, "test", validation),
      evidence(4, "test", agentClaimSummary("node --test: 3 tests pass")),
    ],
    pullRequests: [
      { number: 2, todo: "T2", headRef: "loopx/t2", headSha: "b".repeat(40), state: "open" },
    ],
  });
}

describe("a tick comment a person reads", () => {
  const body = renderTickComment(finishedOnBranch(), TICK_ID, { serverUrl: SANDBOX, now: NOW });

  it("gives the validation one line in the runner's own counts, once, with its raw tail collapsed", () => {
    const lines = body.split("\n");
    expect(lines.filter((l) => l.includes("node --test: 4 passed, 0 failed, exit 0"))).toEqual([
      "- **test** node --test: 4 passed, 0 failed, exit 0",
    ]);
    const pre = /\n {2}<details><summary>output<\/summary><pre>([\s\S]*?)<\/pre><\/details>/.exec(
      body,
    );
    expect(pre?.[1]).toContain("# pass 4");
    // Every raw line stays inside the list item, so none renders as markdown of its own.
    expect(
      (pre?.[1] ?? "")
        .split("\n")
        .slice(1)
        .every((l) => l.startsWith("  ")),
    ).toBe(true);
    // No visible line carries raw TAP: it sits only inside the collapsed <pre>.
    const visible = body.replace(/<pre>[\s\S]*?<\/pre>/g, "");
    expect(visible).not.toMatch(/TAP version|# pass|duration_ms/);
  });

  it("marks what the agent said as its claim, and a commit by its subject and sha", () => {
    expect(body).toContain(
      "- **test** node --test: 3 tests pass _(the agent's claim, not checked)_",
    );
    expect(body).toContain(`- **commit** \`${"a".repeat(12)}\` Cache parsed ASTs`);
    expect(body).not.toContain("Cache parsed ASTs _(the agent's");
    expect(body).toContain("<details><summary>Evidence (3)</summary>");
  });

  it("says what the todo waits for, not its status column", () => {
    expect(body).toContain("- T2: waiting for #2 to merge");
    expect(body).not.toMatch(/is blocked/);
  });

  it("links the run on the host LoopX talks to", () => {
    expect(body).toContain(`(${SANDBOX}/acme/widgets/actions/runs/555/attempts/1)`);
    expect(body).not.toContain("github.com");
  });
});

describe("the reviewer handoff a person reads", () => {
  const s = finishedOnBranch();
  const pr = s.pullRequests[0];
  if (!pr) throw new Error("fixture has PR #2");
  const body = renderPrHandoff(s, pr, NOW);

  it("lists each fact once, in its one line, with no raw output", () => {
    expect(body.split("\n").filter((l) => l.includes("node --test: 4 passed"))).toHaveLength(1);
    expect(body).not.toMatch(/TAP version|# pass|duration_ms/);
    expect(body).toContain("node --test: 3 tests pass _(the agent's claim, not checked)_");
  });

  it("names what the todo it serves waits for, not its status column", () => {
    // Issue references in rendered text are broken (breakIssueRefs), so none is cross-linked.
    expect(body).toContain("**Serves:** T2 Cache the parser (waiting for #\u200b2 to merge)");
    expect(body).not.toContain("(blocked)");
  });
});

describe("state words", () => {
  it("name what each todo waits for and on whom", () => {
    const s = finishedOnBranch();
    const [t2] = s.todos;
    if (!t2) throw new Error("fixture has T2");
    expect(todoStateWords(s, t2, NOW)).toBe("waiting for #2 to merge");
    const noPr = { ...s, pullRequests: [] };
    expect(todoStateWords(noPr, t2, NOW)).toBe("waiting for its pull request to merge");

    const gated = goalState({ gates: [gate({ scopes: ["merge"] })] });
    const held = gated.todos.find((t) => t.key === "T2");
    if (!held) throw new Error("fixture has T2");
    expect(todoStateWords(gated, { ...held, requiredScopes: ["merge"] }, NOW)).toBe(
      "waiting for alice's decision on G1",
    );
    expect(todoStateWords(gated, held, NOW)).toBe("ready to run");

    const leased = {
      ...held,
      claim: { tickId: TICK_ID, agent: "runner", leaseExpiresAt: new Date(NOW.getTime() + 60_000) },
    };
    expect(todoStateWords(gated, leased, NOW)).toBe("running (tick #1)");
    expect(todoStateWords(gated, { ...held, status: "done" }, NOW)).toBe("done");
    expect(
      todoStateWords(gated, { ...held, status: "blocked", blockedReason: "needs a key" }, NOW),
    ).toBe("blocked: needs a key");
  });

  it("name the goal's state from its status and the kernel's decision", () => {
    const s = goalState({ gates: [] });
    const over = decide(s, NOW, "test");
    expect(goalStateWords(s, { ...over, route: "over_budget" }, NOW)).toBe(
      "paused: budget reached",
    );
    expect(goalStateWords(s, { ...over, route: "ask_human", gates: ["G1"] }, NOW)).toBe(
      "waiting for alice's decision on G1",
    );
    const done = goalState({ gates: [] });
    done.goal.status = "done";
    expect(goalStateWords(done, over, NOW)).toBe("done");
    const paused = goalState({ gates: [] });
    paused.goal.status = "paused";
    paused.goal.statusReason = "paused by alice.";
    expect(goalStateWords(paused, over, NOW)).toBe("paused: paused by alice");
  });

  it("say what a goal with nothing to run waits on, from the first todo that waits", () => {
    const s = goalState({ gates: [] });
    const wait = { ...decide(s, NOW, "test"), route: "wait" as const };
    for (const t of s.todos) t.status = "done";
    expect(goalStateWords(s, wait, NOW)).toBe("waiting");
    const last = s.todos.at(-1);
    if (!last) throw new Error("the fixture has todos");
    last.status = "blocked";
    last.resumeWhen = { kind: "pr_merged", pr: 2 };
    expect(goalStateWords(s, wait, NOW)).toBe("waiting for #2 to merge");
  });
});
