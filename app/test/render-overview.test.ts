import type { GoalSummary } from "@loopx/store";
import { describe, expect, it } from "vitest";
import type { Overview } from "../src/dashboard/dashboard-data.ts";
import { renderOverview } from "../src/dashboard/render-overview.ts";

const NOW = new Date("2026-11-29T12:00:00Z");
const LATER = new Date(NOW.getTime() + 30 * 60_000);

const goal: GoalSummary = {
  id: "11111111-1111-4111-8111-111111111111",
  repo: "acme/widgets",
  issueNumber: 42,
  title: "Gears",
  status: "active",
  statusReason: "",
  nextWakeAt: null,
  spent: { usd: 0, runnerMinutes: 0, ticks: 0 },
  updatedAt: NOW,
};

function overview(running: Overview["running"]): Overview {
  return {
    now: NOW,
    openGates: [],
    stalled: [],
    paused: [],
    running,
    scheduled: [],
    watched: [],
    done: [],
    goals: [goal],
  };
}

const lease = (
  tick: number,
  todo: string,
  slot: string,
  run: { id: number; attempt: number } | null,
) => ({
  goalId: goal.id,
  tick,
  todo,
  slot,
  run,
  startedAt: NOW,
  leaseExpiresAt: LATER,
  goal,
});

describe("the overview's running ticks", () => {
  it("shows each parallel tick of one goal with its slot and run on the App's GitHub host", () => {
    const page = renderOverview(
      overview([
        lease(2, "T2", "1", { id: 600, attempt: 1 }),
        lease(3, "T3", "2", { id: 601, attempt: 2 }),
      ]),
      null,
      "",
      null,
      "https://ghe.example.com",
    ).value;
    expect(page).toContain(
      '<a href="https://ghe.example.com/acme/widgets/actions/runs/600/attempts/1">tick 2</a> on T2 · slot 1',
    );
    expect(page).toContain(
      '<a href="https://ghe.example.com/acme/widgets/actions/runs/601/attempts/2">tick 3</a> on T3 · slot 2',
    );
    expect(page).not.toContain("https://github.com/");
  });

  it("names a tick without a known run, and a goal's one slot as slot 1", () => {
    const page = renderOverview(
      overview([lease(1, "T1", "", null)]),
      null,
      "",
      null,
      "https://github.com",
    ).value;
    expect(page).toContain("<td>tick 1 on T1 · slot 1</td>");
    expect(page).not.toContain("/actions/runs/");
  });
});

describe("the overview's waiting goals", () => {
  it("lists an active goal listed nowhere else, with what it waits on in words", () => {
    const waiting = { ...overview([]), watched: [{ goal, words: "waiting for #2 to merge" }] };
    const page = renderOverview(waiting, null, "", null, "https://github.com").value;
    const section = page.slice(page.indexOf("<h2>Waiting on GitHub"), page.indexOf("<h2>Done"));
    expect(section).toContain("acme/widgets#42");
    expect(section).toContain("waiting for #2 to merge");
    const none = renderOverview(overview([]), null, "", null, "https://github.com").value;
    expect(none).toContain("Nothing else is waiting.");
  });
});
