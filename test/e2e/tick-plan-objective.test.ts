import { BRIEF_SOURCES } from "@loopx/core";
import type { ScriptedAnthropic } from "@loopx/sandbox/models";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { instructingText, onlyAsData } from "../hostile/support/nonce-blocks.ts";
import { promptsFrom, startClaudeTicks } from "../support/claude-ticks.ts";
import type { TickHarness } from "../support/tick-api-harness.ts";
import { dispatchOneTick, finishRun } from "../support/tick-workflow-runs.ts";

const serverUrl = inject("pgUrl");
const skipReason = serverUrl ? "" : inject("pgSkipReason");

const OBJECTIVE = "Ship a gear catalogue";
const BODY = "Catalogue every gear we sell, then publish it.";

/**
 * What a planning slice writes: no file changes, three todos, one of them needing `deploy` and
 * one building on another.
 */
const PLAN = {
  outcome: "completed",
  handoff: { done: "Planned the catalogue", next: "List the gears first", questions: [] },
  evidence: [{ kind: "note", summary: "three steps cover the objective" }],
  continuation: { kind: "goal_active" },
  proposedTodos: [
    { title: "List the gears", detail: "one per line in GEARS.md" },
    { title: "Describe each gear", detail: "", after: "List the gears" },
    { title: "Publish the catalogue", detail: "to the docs site", requiredScopes: ["deploy"] },
  ],
};

/**
 * The replan (tick #2) revises: drops "Describe each gear" (T3), puts publishing first, tries to
 * drop the writer's T5, and proposes the rest of the plan again.
 */
const REPLAN = {
  ...PLAN,
  proposedTodos: [PLAN.proposedTodos[0], PLAN.proposedTodos[2]],
  revisions: { drop: ["T3", "T5"], order: ["T4", "T2"] },
};

/**
 * Scenario: a writer's issue states an objective and nothing else. The first tick (the real
 * action on the sandbox's runner, the real `claude` against a scripted model) plans: the
 * planning todo changes no files yet completes, because its result carries valid proposed
 * todos; they keep their scopes and what they build on. The prompt carried the result schema, the objective as the
 * source table says, the tick's deadline and the money left. A `/loopx replan` whose agent
 * proposes the same todos again adds none; it drops and reorders the agent's todos, and its
 * attempt to drop a writer's todo is refused.
 */
describe.skipIf(!serverUrl)(
  `e2e: an objective alone is planned through the action${skipReason ? ` — skipped: ${skipReason}` : ""}`,
  () => {
    let h: TickHarness;
    let model: ScriptedAnthropic;
    let close = async () => {};
    beforeAll(async () => {
      ({ h, model, close } = await startClaudeTicks({
        serverUrl: serverUrl ?? "",
        resultFor: (prompt) => (prompt.includes(", tick #2") ? REPLAN : PLAN),
        closing: "Planned.",
        configLines: ["budgets:", "  goal:", "    usd: 25"],
        apiKey: "sk-ant-plan-0123456789abcdef",
      }));
    });
    afterAll(() => close());

    it("plans the objective once; a replan revises the agent's todos and adds none twice", async () => {
      const issue = { number: await h.fileIssue({ title: OBJECTIVE, body: BODY }) };
      const goal = await h.store.findGoalByIssue(h.repo.id, issue.number);
      if (!goal) throw new Error("no goal");
      expect(goal.todos).toEqual([]);

      const first = await finishRun(h, (await dispatchOneTick(h, issue.number)).id);
      expect(first.run.conclusion, first.logs).toBe("success");
      expect(first.jobs.ask?.outputs.todo).toBe("T1");
      await h.settle();

      let state = await h.store.loadGoal(goal.goal.id);
      const t1 = state?.todos.find((t) => t.key === "T1");
      expect(t1?.kind).toBe("plan");
      // The plan changed no file; what completes it is the proposed todos the kernel accepted.
      expect(t1?.status).toBe("done");
      const proposed = state?.todos.filter((t) => t.key !== "T1") ?? [];
      expect(
        proposed.map((t) => [t.title, t.origin, t.status, t.requiredScopes, t.resumeWhen]),
      ).toEqual([
        ["List the gears", "agent", "ready", [], null],
        ["Describe each gear", "agent", "ready", [], { kind: "todo_done", todo: "T2" }],
        ["Publish the catalogue", "agent", "ready", ["deploy"], null],
      ]);
      expect(state?.goal.backoff.stalledTicks).toBe(0);

      const prompt = promptsFrom(model, 0)[0] ?? "";
      // The result schema: todos with their scopes, and gate requests.
      expect(prompt).toContain("proposedTodos");
      expect(prompt).toContain("requiredScopes");
      expect(prompt).toContain("gateRequests");
      expect(prompt).toContain('"after"');
      // As the source table says: a writer's objective instructs; a planning todo's text is data.
      expect(BRIEF_SOURCES.writerIssue.trust).toBe("instruction");
      expect(BRIEF_SOURCES.proposedTodo.trust).toBe("data");
      expect(instructingText(prompt)).toContain(`Objective: ${OBJECTIVE}`);
      expect(instructingText(prompt)).toContain(BODY);
      expect(onlyAsData(prompt, t1?.title ?? "T1's title")).toBe(true);
      // The tick's deadline is its lease; the money left is the budget less what was spent.
      const tick = state?.ticks.find((t) => t.todo === "T1");
      expect(prompt).toContain(`Deadline: ${tick?.leaseExpiresAt.toISOString()}`);
      expect(prompt).toContain("Money left: $25.00 of $25.00");

      for (const body of ["/loopx todo add Ask legal about the prices", "/loopx replan"]) {
        await h.as("alice").rest.issues.createComment({
          owner: "acme",
          repo: "widgets",
          issue_number: issue.number,
          body,
        });
        await h.settle();
      }
      await h.settle();
      const asked = model.requests.length;
      const second = await finishRun(h, (await dispatchOneTick(h, issue.number)).id);
      expect(second.run.conclusion, second.logs).toBe("success");
      await h.settle();
      state = await h.store.loadGoal(goal.goal.id);
      const replan = state?.todos.find((t) => t.key === second.jobs.ask?.outputs.todo);
      expect(replan?.kind).toBe("plan");
      expect(replan?.status).toBe("done");
      // The same titles among open todos are the same todos: nothing was added twice. The
      // replan dropped and reordered the agent's todos; the writer's T5 stayed as it was.
      const rows = (state?.todos ?? [])
        .filter((t) => t.kind !== "plan")
        .sort((a, b) => a.position - b.position)
        .map((t) => [t.key, t.title, t.status]);
      expect(rows).toEqual([
        ["T4", "Publish the catalogue", "ready"],
        ["T3", "Describe each gear", "dropped"],
        ["T2", "List the gears", "ready"],
        ["T5", "Ask legal about the prices", "ready"],
      ]);
      const refused = state?.evidence.find((e) => e.summary.startsWith("plan revisions refused"));
      expect(refused?.summary).toContain("T5 is not an agent's proposal (human)");
      expect(promptsFrom(model, asked)[0] ?? "").toContain("Money left: $");
    }, 180_000);
  },
);
