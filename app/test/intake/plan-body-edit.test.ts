import { renderManagedBlock } from "@loopx/github";
import { describe, expect, it } from "vitest";
import { ctx, expectOk, state, todo } from "../../../packages/core/test/fixtures.ts";
import { readBodyEdit } from "../../src/issues/body-edit.ts";
import { type BodyEditFacts, planBodyEdit, planOwnWrite } from "../../src/issues/plan-body-edit.ts";

const ISSUE = { owner: "acme", repo: "widgets", number: 42 };
const goal = state({ todos: [todo("T1"), todo("T2")] });
const block = renderManagedBlock(goal, { statusCommentUrl: null });
const body = `Make widgets faster.\n\n${block}\n`;
const ticked = body.replace("- [ ] ", "- [x] ");

function facts(to: string, over: Partial<BodyEditFacts> = {}): BodyEditFacts {
  return {
    issue: ISSUE,
    repo: { id: 10, fullName: "acme/widgets" },
    goal,
    deliveryId: "d-1",
    sender: { login: "stranger", type: "User" },
    edit: readBodyEdit(body, to),
    titleChanged: false,
    trusted: false,
    today: "2026-01-05",
    ...over,
  };
}

describe("planBodyEdit: who may tick a box", () => {
  it("the fixture's tick is a tick of T1", () => {
    expect(readBodyEdit(body, ticked).ticked).toEqual(["T1"]);
  });

  it("an outsider's tick is put back, with one reply keyed per person per day", () => {
    const plan = planBodyEdit(facts(ticked));
    if (plan.kind !== "apply") throw new Error("the block is rendered back");
    expect(plan.actor).toMatchObject({ login: "stranger", trusted: false });
    expect(plan.effects).toHaveLength(1);
    expect(plan.effects[0]).toMatchObject({
      kind: "reply",
      key: "checkbox-refused:stranger:2026-01-05",
      issue: ISSUE,
      lane: "loopx",
    });
    const r = expectOk(plan.transition(goal, ctx(undefined, plan.actor)));
    // Nothing is completed: the checklist is only rendered again.
    expect(r.state.todos.map((t) => t.status)).toEqual(["ready", "ready"]);
    expect(r.effects.map((e) => e.kind)).toContain("body");
    // The same person the same day: the same key (the outbox writes it once); the next day, another.
    const again = planBodyEdit(facts(ticked));
    expect(again.kind === "apply" && again.effects[0]?.key).toBe(plan.effects[0]?.key);
    const tomorrow = planBodyEdit(facts(ticked, { today: "2026-01-06" }));
    expect(tomorrow.kind === "apply" && tomorrow.effects[0]?.key).toBe(
      "checkbox-refused:stranger:2026-01-06",
    );
  });

  it("a bot's tick is put back without a reply", () => {
    const plan = planBodyEdit(facts(ticked, { sender: { login: "helper[bot]", type: "Bot" } }));
    expect(plan.kind).toBe("apply");
    expect(plan.effects).toEqual([]);
  });

  it("an outsider's other edit in the block is rendered back without a reply; outside it, left alone", () => {
    const retitled = body.replace("Do T2", "Do something else");
    const inBlock = planBodyEdit(facts(retitled));
    expect(inBlock).toMatchObject({ kind: "apply", effects: [] });
    const outside = planBodyEdit(facts(body.replace("faster", "slower")));
    expect(outside).toEqual({
      kind: "ignore",
      why: "edit by stranger, outside the block",
      effects: [],
    });
  });

  it("a writer's tick completes the todo with a receipt, and no reply", () => {
    const plan = planBodyEdit(
      facts(ticked, { sender: { login: "writer", type: "User" }, trusted: true }),
    );
    if (plan.kind !== "apply") throw new Error("a writer's tick is a transition");
    expect(plan.effects).toEqual([]);
    const r = expectOk(plan.transition(goal, ctx(undefined, plan.actor)));
    expect(r.state.todos.find((t) => t.key === "T1")?.status).toBe("done");
    expect(r.effects).toContainEqual(
      expect.objectContaining({ kind: "receipt", key: "receipt:checklist:d-1" }),
    );
  });

  it("an edit that changes nothing LoopX reads is ignored", () => {
    expect(planBodyEdit(facts(body, { edit: null }))).toMatchObject({
      kind: "ignore",
      effects: [],
    });
  });
});

describe("planOwnWrite: the echo of the app's own body write", () => {
  const person = body.replace("faster", "faster, and cheaper");
  const rendered = `Make widgets faster.\n\n${block.replace("Do T2", "Do T2 now")}\n`;
  const own = {
    issue: ISSUE,
    deliveryId: "d-2",
    from: person,
    wrote: rendered,
    recorded: { readBody: body, wroteBody: rendered },
    current: rendered,
  };

  it("a person's edit the write overwrote is restored around the app's block, by the outbox", () => {
    const plan = planOwnWrite(own);
    expect(plan.kind).toBe("ignore");
    expect(plan.effects).toHaveLength(1);
    const restore = plan.effects[0];
    if (restore?.kind !== "restore_body") throw new Error("expected a restore");
    expect(restore.key).toBe("restore_body:d-2");
    expect(restore.expected).toBe(rendered);
    expect(restore.body).toContain("and cheaper");
    expect(restore.body).toContain("Do T2 now");
  });

  it("nothing is restored when nothing was overwritten, or the body changed again since", () => {
    expect(planOwnWrite({ ...own, from: body }).effects).toEqual([]);
    expect(planOwnWrite({ ...own, current: `${rendered}later edit` }).effects).toEqual([]);
    expect(
      planOwnWrite({ ...own, recorded: { readBody: body, wroteBody: "older" } }).effects,
    ).toEqual([]);
    expect(planOwnWrite({ ...own, from: null }).effects).toEqual([]);
  });
});
