import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { GoalState } from "@loopx/core";
import { Octokit } from "@octokit/rest";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startTickHarness, type TickHarness } from "../support/tick-api-harness.ts";
import {
  dispatchedRuns,
  dispatchOneTick,
  finishRun,
  useTickWorkflow,
} from "../support/tick-workflow-runs.ts";

const serverUrl = inject("pgUrl");
const skipReason = serverUrl ? "" : inject("pgSkipReason");

/**
 * Where each slice waits until the test lets its todo go: the slices report their arrival, so
 * the test knows two of them are inside their slice at once without sleeping on a guess.
 */
class Barrier {
  readonly arrived = new Set<string>();
  readonly released = new Set<string>();
  private server: Server | null = null;
  url = "";

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const todo = /^\/go\/(T[0-9]+)$/.exec(req.url ?? "")?.[1];
      if (todo) this.arrived.add(todo);
      res.statusCode = todo && this.released.has(todo) ? 200 : 503;
      res.end();
    });
    await new Promise<void>((resolve) => this.server?.listen(0, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  reset(): void {
    this.arrived.clear();
    this.released.clear();
  }

  async until(todos: string[], timeoutMs = 90_000): Promise<void> {
    const end = Date.now() + timeoutMs;
    while (!todos.every((t) => this.arrived.has(t))) {
      if (Date.now() > end) {
        throw new Error(`waited for ${todos.join(", ")}; arrived: ${[...this.arrived].join(", ")}`);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  close(): Promise<void> {
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

const PLAN = {
  outcome: "completed",
  handoff: { done: "Planned the guide and the API", next: "Write the guide", questions: [] },
  evidence: [{ kind: "note", summary: "three todos, two of them on the docs" }],
  continuation: { kind: "goal_active" },
  proposedTodos: [
    { title: "Write the guide", detail: "docs/guide.md", paths: ["docs/**"] },
    { title: "Index the guide", detail: "docs/index.md", paths: ["docs/index.md"] },
    { title: "Build the API", detail: "src/api.ts", paths: ["src/**"] },
  ],
};

/** A slice's claim; "completed" names what follows, or the harness reads it as progress. */
const claim = (outcome: string, done: string) =>
  JSON.stringify({
    outcome,
    handoff: { done, next: "More", questions: [] },
    ...(outcome === "completed" ? { continuation: { kind: "goal_active" } } : {}),
  });

/**
 * The shell harness by todo: T1 plans; the others wait at the barrier, then write their files.
 * T3 ("Index the guide") also writes under src/, which T4 declared: the hostile push.
 */
function slices(barrier: string): string {
  const wait = `until curl -sf --noproxy '*' "${barrier}/go/$LOOPX_TODO" >/dev/null; do sleep 0.1; done`;
  const write = (path: string, text: string) =>
    `mkdir -p "$(dirname ${path})" && echo '${text}' >> ${path}`;
  return [
    'case "$LOOPX_TODO" in',
    `  T1) printf '%s' '${JSON.stringify(PLAN)}' > "$LOOPX_RESULT" ;;`,
    `  T2) ${wait} && ${write("docs/guide.md", "How to use widgets.")} && printf '%s' '${claim("completed", "Wrote the guide")}' > "$LOOPX_RESULT" ;;`,
    `  T3) ${wait} && ${write("docs/index.md", "- guide")} && ${write("src/api.ts", "export const hijacked = true;")} && printf '%s' '${claim("completed", "Indexed the guide")}' > "$LOOPX_RESULT" ;;`,
    `  T4) ${wait} && ${write("src/api.ts", "export const api = 1;")} && printf '%s' '${claim("progress", "Started the API")}' > "$LOOPX_RESULT" ;;`,
    "esac",
  ].join("\n");
}

/**
 * Scenario: `.github/loopx.yml` says `parallel: 2`; a writer's issue states only an objective.
 * The first tick (the real action, the shell harness) plans three todos with declared paths:
 * the guide (docs/**), its index (docs/index.md, inside the guide's paths) and the API (src/**).
 * Two runs dispatched at once, one per slot, each get their own lease and todo — the guide and
 * the API; the index, which overlaps the guide, is skipped while the guide runs — and both
 * slices are provably inside their work at the same time (each waits at a barrier until the
 * other has arrived; the ticks' rows overlap). Each pushes its own branch and gets its own PR.
 * Then the index runs beside the API and its slice also rewrites src/api.ts: that push is held,
 * naming the API's todo and paths, and nothing of it reaches GitHub; the API's push goes on.
 */
describe.skipIf(!serverUrl)(
  `e2e: parallel: 2 runs disjoint todos of one goal at once${skipReason ? ` — skipped: ${skipReason}` : ""}`,
  () => {
    let h: TickHarness;
    let alice: Octokit;
    const barrier = new Barrier();
    beforeAll(async () => {
      await barrier.start();
      h = await startTickHarness({ onPostgres: true });
      useTickWorkflow(h, {
        config: [
          "harness:",
          "  default: shell",
          "validationCommand: 'true'",
          "parallel: 2",
          "",
        ].join("\n"),
        vars: { LOOPX_SHELL_COMMAND: slices(barrier.url) },
      });
      alice = new Octokit({
        baseUrl: h.sandbox.url,
        auth: h.sandbox.createUserToken("alice"),
        request: { retries: 0 },
      });
    });
    afterAll(async () => {
      await h?.close();
      await barrier.close();
    });

    /** Both slots' runs, dispatched back to back as the App's "Run workflow" would. */
    async function dispatchBothSlots(issue: number): Promise<number[]> {
      const before = new Set(dispatchedRuns(h).map((r) => r.id));
      h.sandbox.runner.enabled = true;
      try {
        for (const slot of ["1", "2"]) {
          await alice.rest.actions.createWorkflowDispatch({
            owner: "acme",
            repo: "widgets",
            workflow_id: "loopx-tick.yml",
            ref: "main",
            inputs: { goal: String(issue), slot },
          });
        }
      } finally {
        h.sandbox.runner.enabled = false;
      }
      const runs = dispatchedRuns(h).filter((r) => !before.has(r.id));
      expect(runs.map((r) => r.status)).not.toContain("pending");
      return runs.map((r) => r.id);
    }

    const load = async (goalId: string): Promise<GoalState> => {
      const state = await h.store.loadGoal(goalId);
      if (!state) throw new Error("the goal is gone");
      return state;
    };
    const headOf = (branch: string) =>
      h.sandbox.store.repoByName("acme", "widgets").branches.get(branch);
    const fileOn = (branch: string, path: string) => {
      const repo = h.sandbox.store.repoByName("acme", "widgets");
      const head = repo.branches.get(branch);
      return head === undefined ? null : h.sandbox.store.git(repo).readFile(head, path);
    };
    const pullsOf = async (branch: string) =>
      (await alice.rest.pulls.list({ owner: "acme", repo: "widgets", state: "all" })).data.filter(
        (p) => p.head.ref === branch,
      );
    /** The todo a run's ask job was given (known once its agent job runs). */
    const askedTodo = (runId: number) =>
      [...h.sandbox.store.workflowJobs.values()].find((j) => j.runId === runId && j.key === "ask")
        ?.outputs.todo;

    it("two slots run the guide and the API at once; the overlapping index waits; its hostile push is held", async () => {
      const issue = await h.fileIssue({
        title: "Document and build the widget API",
        body: "A guide for users and the API behind it.",
      });
      const created = await h.store.findGoalByIssue(h.repo.id, issue);
      if (!created) throw new Error("no goal");
      const goalId = created.goal.id;
      expect(created.goal.parallel).toBe(2);
      expect(created.todos).toEqual([]);

      const plan = await finishRun(h, (await dispatchOneTick(h, issue)).id, 120_000);
      expect(plan.run.conclusion, plan.logs).toBe("success");
      await h.settle();
      let state = await load(goalId);
      expect(state.todos.map((t) => [t.key, t.kind, t.status, t.paths])).toEqual([
        ["T1", "plan", "done", []],
        ["T2", "task", "ready", ["docs/**"]],
        ["T3", "task", "ready", ["docs/index.md"]],
        ["T4", "task", "ready", ["src/**"]],
      ]);

      // Round one: both slots at once. Each slice waits until both are inside their slice.
      const first = await dispatchBothSlots(issue);
      await barrier.until(["T2", "T4"]);
      state = await load(goalId);
      const live = state.ticks.filter((t) => t.finishedAt === null);
      expect(live.map((t) => [t.todo, t.slot]).sort()).toEqual([
        ["T2", expect.stringMatching(/^[12]$/)],
        ["T4", expect.stringMatching(/^[12]$/)],
      ]);
      expect(new Set(live.map((t) => t.slot)).size).toBe(2);
      expect(new Set(live.map((t) => t.leaseToken)).size).toBe(2);
      expect(new Set(live.map((t) => t.run?.id)).size).toBe(2);
      // The index overlaps the running guide: nobody claimed it.
      expect(state.todos.find((t) => t.key === "T3")?.claim).toBeNull();
      expect(barrier.arrived.has("T3")).toBe(false);
      for (const todo of ["T2", "T4"]) barrier.released.add(todo);
      const one = await Promise.all(first.map((id) => finishRun(h, id, 120_000)));
      await h.settle();
      for (const run of one) expect(run.run.conclusion, run.logs).toBe("success");
      expect(one.map((r) => r.jobs.ask?.outputs.todo).sort()).toEqual(["T2", "T4"]);

      state = await load(goalId);
      const [guide, api] = ["T2", "T4"].map((todo) => state.ticks.find((t) => t.todo === todo));
      if (!guide?.finishedAt || !api?.finishedAt) throw new Error("both ticks should be done");
      // The two ticks' windows overlap on the database's clock.
      expect(Math.max(guide.startedAt.getTime(), api.startedAt.getTime())).toBeLessThan(
        Math.min(guide.finishedAt.getTime(), api.finishedAt.getTime()),
      );
      expect(fileOn(`loopx/${issue}-T2`, "docs/guide.md")).toBe("How to use widgets.\n");
      expect(fileOn(`loopx/${issue}-T4`, "src/api.ts")).toBe("export const api = 1;\n");
      expect(fileOn(`loopx/${issue}-T2`, "src/api.ts")).toBeNull();
      expect(await pullsOf(`loopx/${issue}-T2`)).toHaveLength(1);
      expect(await pullsOf(`loopx/${issue}-T4`)).toHaveLength(1);

      // The guide is complete and waits for its PR; the API goes on.
      expect(state.todos.filter((t) => t.key !== "T1").map((t) => [t.key, t.status])).toEqual([
        ["T2", "blocked"],
        ["T3", "ready"],
        ["T4", "ready"],
      ]);

      // Round two: the index now runs beside the API.
      barrier.reset();
      const second = await dispatchBothSlots(issue);
      await barrier.until(["T3", "T4"]);
      state = await load(goalId);
      expect(
        state.ticks
          .filter((t) => t.finishedAt === null)
          .map((t) => t.todo)
          .sort(),
      ).toEqual(["T3", "T4"]);
      const apiHead = headOf(`loopx/${issue}-T4`);
      // The index finishes first, while the API's tick still runs and holds src/**.
      barrier.released.add("T3");
      const indexRunId = second.find((id) => askedTodo(id) === "T3");
      const apiRunId = second.find((id) => askedTodo(id) === "T4");
      if (indexRunId === undefined || apiRunId === undefined) throw new Error("T3 and T4 runs");
      const indexRun = await finishRun(h, indexRunId, 120_000);
      expect(indexRun.jobs.report?.conclusion, indexRun.logs).toBe("failure");
      expect(indexRun.jobs.report?.log).toContain(
        "held: its commits change paths that T4 (src/**) declared, and that todo's tick is still running (src/api.ts)",
      );
      expect(headOf(`loopx/${issue}-T3`)).toBeUndefined();
      expect(await pullsOf(`loopx/${issue}-T3`)).toEqual([]);
      await h.settle();
      state = await load(goalId);
      const held = state.evidence.find(
        (e) => e.todo === "T3" && e.summary.startsWith("push refused: "),
      );
      expect(held?.summary).toContain(`loopx/${issue}-T3`);
      expect(held?.summary).toContain("T4 (src/**)");
      expect(held?.summary).toContain("src/api.ts");
      expect(state.todos.find((t) => t.key === "T3")?.status).toBe("ready");

      barrier.released.add("T4");
      const apiRun = await finishRun(h, apiRunId, 120_000);
      await h.settle();
      expect(apiRun.run.conclusion, apiRun.logs).toBe("success");
      expect(headOf(`loopx/${issue}-T4`)).not.toBe(apiHead);
      expect(fileOn(`loopx/${issue}-T4`, "src/api.ts")).toContain("export const api = 1;");
      expect(fileOn(`loopx/${issue}-T4`, "src/api.ts")).not.toContain("hijacked");
      expect(await pullsOf(`loopx/${issue}-T4`)).toHaveLength(1);
    }, 400_000);
  },
);
