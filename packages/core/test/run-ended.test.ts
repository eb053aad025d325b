/**
 * GitHub says a tick's workflow run ended and its tick never reported: the tick ends then,
 * as if its lease had expired, and its todo can be claimed again at once.
 */
import { describe, expect, it } from "vitest";
import {
  applyTickResult,
  claimTodo,
  decide,
  endRunTicks,
  type GoalState,
  stopGoal,
} from "../src/index.ts";
import { at, claimInput, ctx, expectOk, minutes, result, state, todo, uuid } from "./fixtures.ts";

const RUN = 4242;

/** T1 claimed by tick 1 in workflow run RUN, leased for 30 minutes. */
function claimedInRun(): GoalState {
  const s = state({ todos: [todo("T1"), todo("T2")] });
  return expectOk(claimTodo(s, claimInput(1, { run: { id: RUN, attempt: 1 } }), ctx(at(0)))).state;
}
const lease = { tickId: uuid(501), leaseToken: "lease-token-1-xxxxxxxx" };

describe("a tick whose run ended before it reported", () => {
  it("ends at GitHub's word, long before its lease, and frees its todo", () => {
    const s = claimedInRun();
    const ended = expectOk(
      endRunTicks(s, { runId: RUN, conclusion: "failure" }, ctx(at(minutes(8)))),
    );
    const tick = ended.state.ticks.find((t) => t.id === lease.tickId);
    expect(tick).toMatchObject({ outcome: "failed", failure: "host_failure" });
    expect(tick?.finishedAt).toEqual(at(minutes(8)));
    expect(ended.state.todos.find((t) => t.key === "T1")?.claim).toBeNull();
    expect(ended.state.evidence.at(-1)).toMatchObject({
      kind: "host_failure",
      todo: "T1",
      summary: expect.stringContaining(`run ${RUN} ended failure`),
    });
    // A stall the agent ran: the goal backs off as after a lost tick, and then T1 is next.
    expect(ended.state.goal.backoff.stalledTicks).toBe(1);
    const after = ended.state.goal.backoff.until ?? at(minutes(8));
    expect(decide(ended.state, after, "agent-a")).toMatchObject({ route: "run", todo: "T1" });
  });

  it("refuses a run with no unfinished tick, and a late result of the ended tick", () => {
    const s = claimedInRun();
    expect(
      endRunTicks(s, { runId: RUN + 1, conclusion: "failure" }, ctx(at(minutes(8)))),
    ).toMatchObject({
      ok: false,
      refusal: { code: "not_found" },
    });
    const reported = expectOk(
      applyTickResult(s, { ...lease, result: result({}) }, ctx(at(minutes(5)))),
    ).state;
    expect(
      endRunTicks(reported, { runId: RUN, conclusion: "failure" }, ctx(at(minutes(8)))),
    ).toMatchObject({ ok: false, refusal: { code: "not_found" } });

    const ended = expectOk(
      endRunTicks(s, { runId: RUN, conclusion: "cancelled" }, ctx(at(minutes(8)))),
    ).state;
    // A stop ended the lease already and cancelled the run: that cancel ends nothing more.
    const stopped = expectOk(stopGoal(s, { reason: "enough" }, ctx(at(minutes(6))))).state;
    expect(
      endRunTicks(stopped, { runId: RUN, conclusion: "cancelled" }, ctx(at(minutes(8)))),
    ).toMatchObject({ ok: false, refusal: { code: "not_found" } });
    // A re-run's report job would bring the ended tick's result: it is not applied.
    expect(
      applyTickResult(ended, { ...lease, result: result({}) }, ctx(at(minutes(9)))),
    ).toMatchObject({ ok: false, refusal: { code: "duplicate" } });
  });
});
