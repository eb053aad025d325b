import { describe, expect, it } from "vitest";
import { renderStatusComment } from "../src/index.ts";
import { decision, goalState, NOW, runningGoal as running } from "./fixtures.ts";

describe("status comment: running ticks", () => {
  it("lists every running tick of a parallel goal, with its slot and run", () => {
    const body = renderStatusComment(running(2), decision(), {
      now: NOW,
      serverUrl: "https://github.com",
    });
    expect(body).toContain("#### Running (2 of 2 slots)");
    expect(body).toContain(
      "- T2 · [tick #2](https://github.com/acme/widgets/actions/runs/600/attempts/1) · slot 1",
    );
    expect(body).toContain(
      "- T3 · [tick #3](https://github.com/acme/widgets/actions/runs/601/attempts/1) · slot 2",
    );
  });

  it("adds nothing for a goal that runs one tick at a time, or when nothing runs", () => {
    expect(
      renderStatusComment(running(1), decision(), { now: NOW, serverUrl: "https://github.com" }),
    ).not.toContain("#### Running");
    const idle = goalState();
    idle.goal.parallel = 2;
    expect(
      renderStatusComment(idle, decision(), { now: NOW, serverUrl: "https://github.com" }),
    ).not.toContain("#### Running");
  });
});
