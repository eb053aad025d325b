import type { GoalState } from "@loopx/core";
import { isRecord, userTextOf } from "@loopx/sandbox/models";
import { describe, expect, inject, it } from "vitest";
import {
  OBJECTIVE,
  OWNER,
  PLANNED,
  RELEASE_SCOPE,
  REQUIRED_CHECK,
} from "../../packages/demo/src/demo-project.ts";
import type { PlanStep, ScenarioFacts } from "../../packages/demo/src/scenario-types.ts";
import { useRealDemo } from "../support/real-demo.ts";

const serverUrl = inject("pgUrl");
const skipReason = serverUrl ? "" : inject("pgSkipReason");

/**
 * `npm run demo -- --yes --plan`, end to end on PostgreSQL with everything real (the App, the
 * tick workflow and action from loopx/loopx@v1, the real `claude` against the scripted model,
 * the sandbox's CI, a ruleset requiring `test` on main). The issue states an objective and no
 * todo; each step the demo reaches is checked against the rules: the planning prompt carries
 * the objective and the result schema; the plan's gate holds the release alone; the others are
 * green on their exact heads while it waits; every todo completes on its PR's merge commit.
 */
describe.skipIf(!serverUrl)(
  `e2e: the planning demo with the real App, action and runner on PostgreSQL${skipReason ? ` — skipped: ${skipReason}` : ""}`,
  () => {
    const demo = useRealDemo(serverUrl ?? "", "loopx-demo-plan-");

    it("objective → plan with a gate → two PRs while it waits → approval → release → merged", async () => {
      const live = () => demo.stack();
      const load = async (f: ScenarioFacts): Promise<GoalState> => {
        const s = await live().store.loadGoal(f.goalId);
        if (!s) throw new Error("the goal is gone");
        return s;
      };
      const keyOf = (s: GoalState, title: string) => s.todos.find((t) => t.title === title)?.key;
      /** Every check on a commit, as CI reported it (LoopX's own checks are not CI). */
      const checksOn = (sha: string | undefined) =>
        [...live().sandbox.store.checkRuns.values()]
          .filter((c) => c.headSha === sha && !c.name.startsWith("LoopX / "))
          .map((c) => [c.name, c.conclusion]);

      const checks: Record<PlanStep, (f: ScenarioFacts) => Promise<void>> = {
        "goal-started": async (f) => {
          const s = await load(f);
          expect(s.goal.owners).toContain(OWNER);
          expect(s.todos).toEqual([]);
        },
        planned: async (f) => {
          const s = await load(f);
          const [plan, ...proposed] = s.todos;
          expect([plan?.kind, plan?.status]).toEqual(["plan", "done"]);
          expect(proposed.map((t) => [t.title, t.origin, t.status, t.requiredScopes])).toEqual([
            [PLANNED.fix, "agent", "ready", []],
            [PLANNED.docs, "agent", "ready", []],
            [PLANNED.release, "agent", "ready", [RELEASE_SCOPE]],
          ]);
          expect(s.gates.map((g) => [g.status, g.scopes, g.pr])).toEqual([
            ["open", [RELEASE_SCOPE], null],
          ]);
          // The planning prompt the real claude sent: the objective, fenced, and the schema.
          const prompt = live()
            .model?.requests.filter((r) => isRecord(r.body) && Array.isArray(r.body.tools))
            .map((r) => (isRecord(r.body) ? userTextOf(r.body.messages) : ""))
            .find((p) => p.includes("(plan, "));
          expect(prompt).toContain(OBJECTIVE.title);
          expect(prompt).toContain('"gateRequests"');
          expect(prompt).toContain('"requiredScopes"');
        },
        "others-proceed": async (f) => {
          const s = await load(f);
          const release = keyOf(s, PLANNED.release);
          expect(s.ticks.map((t) => t.todo)).not.toContain(release);
          expect(s.gates.find((g) => g.scopes.includes(RELEASE_SCOPE))?.status).toBe("open");
          const merge = s.gates.filter((g) => g.scopes.includes("merge"));
          expect(merge).toHaveLength(2);
          for (const gate of merge) {
            const pr = s.pullRequests.find((p) => p.number === gate.pr?.number);
            // Each gate is on its PR's current head, where the required check succeeded.
            expect([gate.status, gate.pr?.headSha]).toEqual(["open", pr?.headSha]);
            expect(pr?.monitor.required).toEqual([REQUIRED_CHECK]);
            expect(checksOn(pr?.headSha)).toEqual([[REQUIRED_CHECK, "success"]]);
          }
        },
        "scope-approved": async (f) => {
          const s = await load(f);
          const gate = s.gates.find((g) => g.scopes.includes(RELEASE_SCOPE));
          expect([gate?.status, gate?.resolvedBy]).toEqual(["approved", OWNER]);
        },
        "all-ready": async (f) => {
          const s = await load(f);
          const release = keyOf(s, PLANNED.release);
          expect(s.ticks.map((t) => t.todo).filter((k) => k === release)).toHaveLength(1);
          expect(s.pullRequests.map((p) => p.state)).toEqual(["open", "open", "open"]);
        },
        done: async (f) => {
          const s = await load(f);
          expect(s.goal.status).toBe("done");
          expect(s.todos.map((t) => t.status)).toEqual(["done", "done", "done", "done"]);
          expect(f.merged).toHaveLength(3);
          // Each task completed on its own PR's merge commit, nothing the agent said.
          for (const title of Object.values(PLANNED)) {
            const todo = s.todos.find((t) => t.title === title);
            const pr = s.pullRequests.find((p) => p.todo === todo?.key);
            const merged = f.merged.find((m) => m.pr === pr?.number);
            const proof = s.evidence.filter((e) => todo?.completion?.evidenceIds.includes(e.id));
            expect([title, proof.map((e) => [e.kind, e.sha])]).toEqual([
              title,
              [["pr", merged?.sha]],
            ]);
          }
          expect(s.ticks.map((t) => t.todo)).toEqual(s.todos.map((t) => t.key));
        },
      };

      const { result, seen } = await demo.run({ plan: true }, checks);

      expect(seen).toEqual(Object.keys(checks));
      expect(result.state?.goal.status).toBe("done");
      expect(result.facts.finalReport).toContain(`#${result.facts.issue} is done`);
    }, 300_000);
  },
);
