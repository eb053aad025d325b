import type { GoalState } from "@loopx/core";
import { describe, expect, it } from "vitest";
import {
  goalState,
  LEASE_END,
  NOW,
  runningGoal as running,
  todo,
} from "../../packages/github/test/fixtures.ts";
import type { GoalDetail } from "../src/dashboard/dashboard-data.ts";
import { renderGoal } from "../src/dashboard/render-goal.ts";

function detail(state: GoalState): GoalDetail {
  return {
    now: NOW,
    summary: {
      id: state.goal.id,
      repo: "acme/widgets",
      issueNumber: 42,
      title: "Gears",
      status: "active",
      statusReason: "",
      nextWakeAt: null,
      spent: { usd: 0, runnerMinutes: 0, ticks: 0 },
      updatedAt: NOW,
    },
    state,
    route: "wait",
    stateWords: "waiting",
    reason: "",
    instruction: "",
    receiptEvents: [],
    ticks: [],
  };
}

const LATER = LEASE_END;
const EARLIER = new Date(NOW.getTime() - 60_000);

function runningRows(page: string): string[] {
  const part = page.split("<h2>Running now")[1]?.split("</section>")[0] ?? "";
  return [...part.matchAll(/<tr>(.*?)<\/tr>/gs)].map((m) => (m[1] ?? "").replace(/\s+/g, " "));
}

describe("the dashboard's running ticks", () => {
  it("lists every running tick with its todo, slot, run on the App's GitHub host and lease", () => {
    const page = renderGoal(detail(running(3)), null, "https://ghe.example.com/").value;
    expect(page).toContain("Running now (2 of 3 slots)");
    const rows = runningRows(page);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toContain("<td>T2</td>");
    expect(rows[0]).toContain(
      '<a href="https://ghe.example.com/acme/widgets/actions/runs/600/attempts/1">tick #2</a>',
    );
    expect(rows[0]).toContain("slot 1");
    expect(rows[0]).toContain(`lease until ${LATER.toISOString()}`);
    expect(rows[1]).toContain("<td>T3</td>");
    expect(rows[1]).toContain("/actions/runs/601/attempts/1");
    expect(rows[1]).toContain("slot 2");
    expect(page).not.toContain("https://github.com/acme/widgets/actions");
  });

  it("leaves out a tick whose lease has lapsed, and says when none runs", () => {
    const s = running(3);
    const lapsed = s.todos.find((t) => t.key === "T3");
    if (lapsed?.claim) lapsed.claim.leaseExpiresAt = EARLIER;
    const rows = runningRows(renderGoal(detail(s), null, "https://github.com").value);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toContain("<td>T2</td>");
    const idle = renderGoal(detail(goalState()), null, "https://github.com").value;
    expect(idle).toContain("No tick is running.");
  });
});

describe("the dashboard's todo board", () => {
  it("shows a held plan's todos in their own column, apart from the ready ones", () => {
    const state = goalState({
      todos: [
        todo("T2", "Measure every gear", "proposed", 1, { origin: "agent" }),
        todo("T3", "Ship it", "ready", 2),
      ],
    });
    const page = renderGoal(
      {
        ...detail(state),
        route: "ask_human",
        stateWords: "waiting for alice's decision on G1",
        reason: "The agent's plan waits for a writer.",
      },
      null,
      "https://github.com",
    ).value;
    const cells = [...page.matchAll(/<td><b>(\w+)<\/b>(.*?)<\/td>/gs)].map((m) => [m[1], m[2]]);
    const column = (name: string) => cells.find(([status]) => status === name)?.[1] ?? "";
    expect(column("proposed")).toContain("T2 Measure every gear");
    expect(column("proposed")).not.toContain("T3");
    expect(column("ready")).toContain("T3 Ship it");
  });
});

describe("the dashboard's receipts", () => {
  const ACT = "https://github.com/acme/widgets/issues/42#issuecomment-7";
  const alice = { kind: "human", login: "alice", trusted: true } as const;
  const events = [
    {
      type: "gate.approved",
      actor: alice,
      at: NOW,
      data: { gate: "G1", scopes: ["merge"], head: "abcdef0123", note: null, act: ACT },
    },
    { type: "lease.renewed", actor: { kind: "app" } as const, at: NOW, data: { tick: "x" } },
    {
      type: "gate.rejected",
      actor: alice,
      at: LATER,
      data: { gate: "G2", scopes: ["deploy"], reason: "<b>no</b>", act: "javascript:alert(1)" },
    },
  ];

  it("says each act in words, newest first, linked to it, with raw data only behind a toggle", () => {
    const page = renderGoal(
      { ...detail(goalState()), receiptEvents: events },
      null,
      "https://github.com",
    ).value;
    const section = page.slice(
      page.indexOf("<h2>Receipts</h2>"),
      page.indexOf("<h2>Tick timeline"),
    );
    const rejected = section.indexOf("alice rejected G2 (deploy)");
    const approved = section.indexOf("alice approved G1 (merge) for head abcdef0");
    expect(rejected).toBeGreaterThan(-1);
    expect(approved).toBeGreaterThan(rejected);
    expect(section).toContain(`<a href="${ACT}">the act</a>`);
    // A person's reason is text, never markup; a non-web link is no link.
    expect(section).toContain("&lt;b&gt;no&lt;/b&gt;");
    expect(section).not.toContain(`href="javascript:`);
    expect(section.match(/<a href=/g)).toHaveLength(1);
    // Machinery is not a receipt; the raw data sits inside <details> only.
    expect(section).not.toContain("lease.renewed");
    const outside = section.replace(/<details>[\s\S]*?<\/details>/g, "");
    expect(outside).not.toContain("gate.approved");
    expect(section).toContain("<details><summary>details</summary><code>gate.approved");
  });

  it("says when nothing was decided yet", () => {
    const page = renderGoal(detail(goalState()), null, "https://github.com").value;
    expect(page).toContain("No decision has been made yet.");
  });

  it("shows what the goal delivered for its cost and what it took of people, from its totals", () => {
    const state = goalState();
    state.goal.spent = { usd: 9, tokens: 0, runnerMinutes: 30, ticks: 4 };
    state.goal.outcomes = { todosDone: 3, prsMerged: 2, personActs: 4, decisions: 1, waitedMs: 0 };
    const page = renderGoal(detail(state), null, "https://github.com").value;
    expect(page).toContain(
      "3 todos done, 2 PRs merged for $9.00 ($4.50 per merged PR, $3.00 per done todo).",
    );
    expect(page).toContain("4 acts by people, 1 decision on gates;");
  });
});
