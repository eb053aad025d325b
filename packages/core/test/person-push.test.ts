/**
 * A change with workflow files can only be pushed by a person: the todo waits for their push
 * instead of running again, and their push — only theirs, only to its branch — opens its PR.
 */
import { describe, expect, it } from "vitest";
import {
  applyTickResult,
  claimTodo,
  decide,
  isAwaitingPersonPush,
  recordPersonPush,
  recordPushRefused,
  todoBranch,
} from "../src/index.ts";
import type { GoalState } from "../src/schemas/state.ts";
import {
  at,
  claimInput,
  ctx,
  expectOk,
  expectRefused,
  lease1,
  minutes,
  result,
  STRANGER,
  state,
  todo,
  WRITER,
} from "./fixtures.ts";

const REFUSED_HEAD = "a".repeat(40);
const PUSHED_HEAD = "c".repeat(40);
const AGENT = { kind: "agent" as const, tickId: lease1.tickId, harness: "shell" };
const WORKFLOW = ".github/workflows/ci.yml";

/** T1's slice (finishing it, or progress only) commits a workflow change; T2 is still to do. */
function finishedWithWorkflow(outcome: "completed" | "progress" = "completed"): GoalState {
  const s = state({ todos: [todo("T1"), todo("T2")] });
  const claimed = expectOk(claimTodo(s, claimInput(1), ctx())).state;
  const done = result({
    outcome,
    commits: [{ sha: REFUSED_HEAD, message: "Run CI on Node 20 and 22" }],
    ...(outcome === "completed" ? { continuation: { kind: "goal_active" } } : {}),
  });
  return expectOk(applyTickResult(claimed, { ...lease1, result: done }, ctx(at(minutes(5))))).state;
}

const refusal = (patch?: string) => ({
  todo: "T1",
  headSha: REFUSED_HEAD,
  summary: `push refused: changes ${WORKFLOW}`,
  paths: [WORKFLOW],
  scopes: ["write:.github"],
  ...(patch === undefined ? {} : { patch }),
});

function handedToPeople(outcome: "completed" | "progress" = "completed"): GoalState {
  const r = recordPushRefused(finishedWithWorkflow(outcome), refusal("diff --git a/x b/x"), {
    ...ctx(at(minutes(6))),
    actor: AGENT,
  });
  return expectOk(r).state;
}

describe("a change only a person can push", () => {
  it("waits for their push: the patch goes to them, no gate is asked, nothing stalls", () => {
    const before = finishedWithWorkflow();
    const r = expectOk(
      recordPushRefused(before, refusal("diff --git a/x b/x"), {
        ...ctx(at(minutes(6))),
        actor: AGENT,
      }),
    );
    const t1 = r.state.todos.find((t) => t.key === "T1");
    expect(t1 && isAwaitingPersonPush(t1)).toBe(true);
    expect(r.effects.filter((e) => e.kind === "patch_comment")).toHaveLength(1);
    expect(r.state.gates).toEqual(before.gates);
    expect(r.state.goal.backoff).toEqual(before.goal.backoff);
    // The other todo goes on; T1 is not run again.
    const next = decide(r.state, at(minutes(7)), "agent-1");
    expect(next.todo).toBe("T2");
  });

  it("without a patch the paths' gate is asked and the todo is runnable again, as before", () => {
    const r = expectOk(
      recordPushRefused(finishedWithWorkflow(), refusal(), {
        ...ctx(at(minutes(6))),
        actor: AGENT,
      }),
    );
    const t1 = r.state.todos.find((t) => t.key === "T1");
    expect(t1?.status).toBe("ready");
    expect(r.state.gates.map((g) => g.scopes)).toEqual([["write:.github"]]);
    expect(r.effects.some((e) => e.kind === "patch_comment")).toBe(false);
  });

  it("a writer's push to the todo's branch is its delivery: evidence, and its PR is opened", () => {
    const s = handedToPeople();
    const branch = todoBranch(s, "T1");
    const r = expectOk(
      recordPersonPush(
        s,
        { todo: "T1", branch, headSha: PUSHED_HEAD, paths: [WORKFLOW] },
        ctx(at(minutes(30)), WRITER),
      ),
    );
    const t1 = r.state.todos.find((t) => t.key === "T1");
    expect(t1?.status).toBe("blocked");
    expect(t1 && isAwaitingPersonPush(t1)).toBe(false);
    expect(t1?.pushedPaths).toEqual([WORKFLOW]);
    expect(r.state.evidence.at(-1)).toMatchObject({
      kind: "commit",
      sha: PUSHED_HEAD,
      todo: "T1",
      summary: expect.stringContaining("@writer pushed"),
    });
    expect(r.effects.filter((e) => e.kind === "open_pull_request")).toEqual([
      expect.objectContaining({ todo: "T1", branch, headSha: PUSHED_HEAD }),
    ]);
  });

  it("after a slice that only made progress, the person's push lets the todo go on from it", () => {
    const s = handedToPeople("progress");
    const t1 = s.todos.find((t) => t.key === "T1");
    expect(t1 && isAwaitingPersonPush(t1)).toBe(true);
    const branch = todoBranch(s, "T1");
    const r = expectOk(
      recordPersonPush(
        s,
        { todo: "T1", branch, headSha: PUSHED_HEAD },
        ctx(at(minutes(30)), WRITER),
      ),
    );
    expect(r.state.todos.find((t) => t.key === "T1")).toMatchObject({
      status: "ready",
      blockedReason: null,
    });
    expect(r.effects.some((e) => e.kind === "open_pull_request")).toBe(true);
  });

  it("refuses a push by someone without write access, changing nothing", () => {
    const s = handedToPeople();
    const input = { todo: "T1", branch: todoBranch(s, "T1"), headSha: PUSHED_HEAD };
    const refused = expectRefused(recordPersonPush(s, input, ctx(at(minutes(30)), STRANGER)));
    expect(refused.code).toBe("not_authorized");
  });

  it("refuses a push to another branch, or to a todo that waits for no one's push", () => {
    const s = handedToPeople();
    const wrong = { todo: "T1", branch: "loopx/1-T9", headSha: PUSHED_HEAD };
    const r1 = expectRefused(recordPersonPush(s, wrong, ctx(at(minutes(30)), WRITER)));
    expect(r1.code).toBe("invalid_input");
    expect(r1.message).toContain(todoBranch(s, "T1"));
    const t2 = { todo: "T2", branch: todoBranch(s, "T2"), headSha: PUSHED_HEAD };
    expect(expectRefused(recordPersonPush(s, t2, ctx(at(minutes(30)), WRITER))).code).toBe(
      "invalid_state",
    );
  });
});
