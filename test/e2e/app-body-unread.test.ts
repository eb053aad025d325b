import { addTodo } from "@loopx/core";
import { findManagedBlocks } from "@loopx/github";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, startHarness } from "../support/app-harness.ts";

const o = { owner: "acme", repo: "widgets" } as const;

/**
 * Scenario: LoopX rewrites its checklist in the goal issue's body without reading the body
 * first while its own last write is what GitHub holds. A person's edit it heard of makes the
 * next write read first and keep their text; an edit whose webhook was lost is overwritten
 * once, seen in the echo of LoopX's write, and put back.
 */
describe("e2e: issue body writes read the body only after someone else edited it", () => {
  let h: Harness;
  let number = 0;
  let goalId = "";
  beforeAll(async () => {
    h = await startHarness();
    const { data } = await h
      .as("alice")
      .rest.issues.create({ ...o, title: "Cache the widgets", body: "Cache them." });
    number = data.number;
    await h.as("alice").rest.issues.addLabels({ ...o, issue_number: number, labels: ["loopx"] });
    await h.settle();
    const goal = await h.store.findGoalByIssue(h.repo.id, number);
    if (!goal) throw new Error("the label started no goal");
    goalId = goal.goal.id;
  });
  afterAll(() => h.close());

  const path = () => `/repos/acme/widgets/issues/${number}`;
  const appCalls = (from: number, operationId: string) =>
    h.sandbox
      .requests()
      .slice(from)
      .filter(
        (r) =>
          r.by?.startsWith("installation:") && r.operationId === operationId && r.path === path(),
      );
  const body = async () =>
    (await h.as("alice").rest.issues.get({ ...o, issue_number: number })).data.body ?? "";
  /** The checklist block's lines, as GitHub holds them. */
  const checklist = (text: string) => findManagedBlocks(text)[0]?.inner.join("\n") ?? "";
  const addByApp = async (title: string) => {
    const r = await h.store.apply(goalId, (s, now) =>
      addTodo(s, { title }, { actor: { kind: "app" }, now, newId: h.app.deps.newId }),
    );
    expect(r.ok).toBe(true);
    h.app.outbox.kick();
    await h.settle();
  };
  const editByAlice = async (edit: (body: string) => string) => {
    const next = edit(await body());
    await h.as("alice").rest.issues.update({ ...o, issue_number: number, body: next });
    await h.settle();
  };

  it("LoopX's own consecutive writes read nothing", async () => {
    const from = h.sandbox.requests().length;
    await addByApp("Pick a cache key");
    await addByApp("Expire old entries");
    expect(appCalls(from, "issues/update")).toHaveLength(2);
    expect(appCalls(from, "issues/get")).toEqual([]);
    const block = checklist(await body());
    expect(block).toContain("Pick a cache key");
    expect(block).toContain("Expire old entries");
  });

  it("a person's edit it heard of is read before the next write, and stays", async () => {
    await editByAlice((b) => b.replace("Cache them.", "Cache them for a minute."));
    const from = h.sandbox.requests().length;
    await addByApp("Measure the hit rate");
    expect(appCalls(from, "issues/get")).toHaveLength(1);
    const now = await body();
    expect(now).toContain("Cache them for a minute.");
    expect(checklist(now)).toContain("Measure the hit rate");
    // Heard and read once: the write after it trusts its own again.
    const next = h.sandbox.requests().length;
    await addByApp("Document the cache");
    expect(appCalls(next, "issues/get")).toEqual([]);
  });

  it("a person's edit whose webhook was lost is overwritten once, then restored", async () => {
    h.sandbox.faults.webhook({ mode: "drop", event: "issues.edited", times: 1 });
    await editByAlice((b) => b.replace("for a minute.", "for a minute, never longer."));
    await addByApp("Warm the cache");
    const now = await body();
    expect(now).toContain("Cache them for a minute, never longer.");
    expect(checklist(now)).toContain("Warm the cache");
  });
});
