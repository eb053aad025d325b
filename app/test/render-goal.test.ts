import { describe, expect, it } from "vitest";
import { goalState, NOW, todo } from "../../packages/github/test/fixtures.ts";
import { renderGoal } from "../src/dashboard/render-goal.ts";

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
        route: "ask_human",
        reason: "The agent's plan waits for a writer.",
        instruction: "",
        gateEvents: [],
        ticks: [],
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
