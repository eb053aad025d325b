import { AskResponse, type GoalState } from "@loopx/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openPulls, personClient, playGateRequest, playTick } from "../support/pr-ticks.ts";
import { startTickHarness, type TickHarness } from "../support/tick-api-harness.ts";

const repo = { owner: "acme", repo: "widgets" } as const;
const DEPLOY = "deploy:docs";

/**
 * Scenario: a goal with two todos. The first slice finds its todo needs authority it lacks and
 * asks for a gate on `deploy:docs` instead of acting: the gate scopes its own todo. The other
 * todo is claimed at once, worked, and its PR goes green and waits at its merge gate, while
 * every later ask refuses to claim the gated todo. A writer approves the gate; the next tick
 * claims the gated todo and its work reaches a PR of its own.
 */
describe("e2e: a gate the agent asks for holds its own todo; the other reaches its PR", () => {
  let h: TickHarness;
  beforeAll(async () => {
    h = await startTickHarness();
  });
  afterAll(() => h.close());

  const load = async (id: string): Promise<GoalState> => {
    const s = await h.store.loadGoal(id);
    if (!s) throw new Error("the goal is gone");
    return s;
  };
  let nextRun = 9100;
  /** The tick workflow's ask, as a tick that finds nothing to run sees it. */
  const ask = async (issue: number) => {
    const runId = nextRun++;
    return AskResponse.parse(
      (await h.post("/api/v1/ticks", { goal: issue }, await h.token(runId))).body,
    );
  };

  it("the gated todo is never claimed until a writer approves; the other runs meanwhile", async () => {
    h.sandbox.ci.rule = () => "success";
    const goal = await h.startGoal("Ship the docs", ["Publish the docs site", "Write the FAQ"]);
    const id = goal.goal.id;
    const issue = goal.goal.issue.number;

    const asked = await playGateRequest(h, issue, {
      question: "May I publish the docs site to production?",
      scopes: [DEPLOY],
    });
    expect(asked.todo).toBe("T1");
    await h.settle();
    let state = await load(id);
    const gate = state.gates.find((g) => g.scopes.includes(DEPLOY));
    expect([gate?.key, gate?.status, gate?.todo]).toEqual(["G1", "open", "T1"]);
    expect(state.todos.find((t) => t.key === "T1")?.requiredScopes).toEqual([DEPLOY]);
    // Asking for authority is the slice doing its job, not a stall: the other todo runs now.
    expect(state.goal.backoff.stalledTicks).toBe(0);

    const faq = await playTick(h, issue, { "docs/faq.md": "# FAQ\n" }, { complete: true });
    expect(faq.todo).toBe("T2");
    await h.sandbox.idle();
    await h.settle();
    const faqPr = (await openPulls(h)).find((p) => p.head.ref === faq.branch);
    if (!faqPr) throw new Error(`no PR was opened for ${faq.branch}`);
    state = await load(id);
    const mergeGates = state.gates.filter((g) => g.scopes.includes("merge"));
    expect(mergeGates.map((g) => [g.status, g.pr?.number, g.pr?.headSha])).toEqual([
      ["open", faqPr.number, faq.sha],
    ]);

    // While G1 waits, no ask claims T1 (nor anything else: T2 waits for its PR to merge).
    for (let i = 0; i < 2; i++) {
      const idle = await ask(issue);
      expect(idle.run).toBe(false);
      if (idle.run) continue;
      expect(idle.reason).toContain("G1");
    }
    state = await load(id);
    expect(state.ticks.filter((t) => t.todo === "T1").map((t) => t.id)).toEqual([asked.tickId]);
    expect(state.todos.find((t) => t.key === "T1")?.status).toBe("ready");

    await personClient(h, "alice").rest.issues.createComment({
      ...repo,
      issue_number: issue,
      body: "/loopx approve G1",
    });
    await h.settle();
    state = await load(id);
    expect(state.gates.find((g) => g.key === "G1")?.status).toBe("approved");

    const publish = await playTick(
      h,
      issue,
      { "docs/deploy.md": "published\n" },
      { complete: true },
    );
    expect(publish.todo).toBe("T1");
    await h.sandbox.idle();
    await h.settle();
    const publishPr = (await openPulls(h)).find((p) => p.head.ref === publish.branch);
    expect(publishPr?.head.sha).toBe(publish.sha);
    state = await load(id);
    expect(state.todos.map((t) => [t.key, t.status])).toEqual([
      ["T1", "blocked"],
      ["T2", "blocked"],
    ]);
    expect(state.gates.filter((g) => g.scopes.includes("merge")).map((g) => g.pr?.number)).toEqual([
      faqPr.number,
      publishPr?.number,
    ]);
  }, 180_000);
});
