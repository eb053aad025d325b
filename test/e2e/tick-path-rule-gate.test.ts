import { Octokit } from "@octokit/rest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTickHarness, type TickHarness } from "../support/tick-api-harness.ts";
import { dispatchOneTick, finishRun, useTickWorkflow } from "../support/tick-workflow-runs.ts";

const RESULT = (done: string) =>
  `printf '%s' '{"outcome":"progress","handoff":{"done":"${done}","next":"More"}}' > "$LOOPX_RESULT"`;

/** T1 writes a migration (a guarded path), T2 only the README: the shell harness reads LOOPX_TODO. */
const SLICE = [
  'case "$LOOPX_TODO" in',
  `  T1) mkdir -p db/migrations && echo 'alter table gears add column teeth int;' > db/migrations/001.sql && ${RESULT("Added the teeth column")} ;;`,
  `  *) echo 'Gears have teeth.' >> README.md && ${RESULT("Documented teeth")} ;;`,
  "esac",
].join("\n");

const CONFIG = [
  "harness:",
  "  default: shell",
  "gates:",
  "  - when: merge",
  "    scopes: [merge]",
  "  - paths: ['db/migrations/**']",
  "    scopes: [migrate]",
  "",
].join("\n");

/**
 * Scenario: `.github/loopx.yml` guards `db/migrations/**` with the scope `migrate`. The real
 * action's report job refuses to push T1's migration; the App opens a gate on `migrate` that
 * blocks T1 alone, so the next tick works T2 while the gate waits. Once a writer approves,
 * T1's next slice is pushed with its migration.
 */
describe("e2e: a path rule guards any glob at push", () => {
  let h: TickHarness;
  let alice: Octokit;
  beforeAll(async () => {
    h = await startTickHarness();
    useTickWorkflow(h, { config: CONFIG, vars: { LOOPX_SHELL_COMMAND: SLICE } });
    alice = new Octokit({
      baseUrl: h.sandbox.url,
      auth: h.sandbox.createUserToken("alice"),
      request: { retries: 0 },
    });
  });
  afterAll(() => h.close());

  const fileOn = (branch: string, path: string) => {
    const repo = h.sandbox.store.repoByName("acme", "widgets");
    const head = repo.branches.get(branch);
    return head === undefined ? null : h.sandbox.store.git(repo).readFile(head, path);
  };

  it("refuses the migration, gates T1 only, runs T2 meanwhile, and pushes T1 once approved", async () => {
    const goal = await h.startGoal("Give gears teeth", ["Add the teeth column", "Document teeth"]);
    const issue = goal.goal.issue.number;

    const first = await finishRun(h, (await dispatchOneTick(h, issue)).id);
    await h.settle();
    expect(first.jobs.ask?.outputs.todo, first.logs).toBe("T1");
    expect(first.jobs.report?.conclusion, first.logs).toBe("failure");
    expect(first.jobs.report?.log).toContain("db/migrations/001.sql");
    expect(fileOn(`loopx/${issue}-T1`, "db/migrations/001.sql")).toBeNull();

    const gated = await h.store.loadGoal(goal.goal.id);
    const gate = gated?.gates.find((g) => g.status === "open" && g.scopes.includes("migrate"));
    expect(gate, JSON.stringify(gated?.gates)).toMatchObject({ todo: "T1", scopes: ["migrate"] });
    expect(gated?.todos.find((t) => t.key === "T1")?.requiredScopes).toContain("migrate");

    // While the gate waits, the other todo runs at once and reaches GitHub.
    const second = await finishRun(h, (await dispatchOneTick(h, issue)).id);
    await h.settle();
    expect(second.jobs.ask?.outputs.todo, second.logs).toBe("T2");
    expect(second.jobs.report?.conclusion, second.logs).toBe("success");
    expect(fileOn(`loopx/${issue}-T2`, "README.md")).toContain("Gears have teeth.");

    await alice.rest.issues.createComment({
      owner: "acme",
      repo: "widgets",
      issue_number: issue,
      body: `/loopx approve ${gate?.key}`,
    });
    await h.settle();
    const approved = await h.store.loadGoal(goal.goal.id);
    expect(approved?.gates.find((g) => g.key === gate?.key)?.status).toBe("approved");

    const third = await finishRun(h, (await dispatchOneTick(h, issue)).id);
    await h.settle();
    expect(third.jobs.ask?.outputs.todo, third.logs).toBe("T1");
    expect(third.jobs.report?.conclusion, third.logs).toBe("success");
    expect(fileOn(`loopx/${issue}-T1`, "db/migrations/001.sql")).toContain("teeth");
    // One question was asked for the one rule, however many ticks it took.
    const final = await h.store.loadGoal(goal.goal.id);
    expect(final?.gates.filter((g) => g.scopes.includes("migrate"))).toHaveLength(1);
  }, 180_000);
});
