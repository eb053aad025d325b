import { Octokit } from "@octokit/rest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTickHarness, type TickHarness } from "../support/tick-api-harness.ts";
import { dispatchOneTick, finishRun, useTickWorkflow } from "../support/tick-workflow-runs.ts";

const SLICE = [
  "echo 'Gears have teeth.' >> README.md",
  `printf '%s' '{"outcome":"progress","handoff":{"done":"Documented teeth","next":"More"}}' > "$LOOPX_RESULT"`,
].join(" && ");

const CONFIG = [
  "harness:",
  "  default: shell",
  "gates:",
  "  - when: merge",
  "    scopes: [merge]",
  "  - when: open_pr",
  "    scopes: [review]",
  "",
].join("\n");

/**
 * Scenario: `.github/loopx.yml` says `when: open_pr`. The real action pushes T1's branch; the
 * App opens no pull request but one gate asking to; a person without write access cannot
 * approve it; a writer's approval opens the PR at the branch's head.
 */
describe("e2e: when: open_pr holds a todo's first pull request for a writer", () => {
  let h: TickHarness;
  const client = (login: string) =>
    new Octokit({
      baseUrl: h.sandbox.url,
      auth: h.sandbox.createUserToken(login),
      request: { retries: 0 },
    });
  beforeAll(async () => {
    h = await startTickHarness();
    useTickWorkflow(h, { config: CONFIG, vars: { LOOPX_SHELL_COMMAND: SLICE } });
  });
  afterAll(() => h.close());

  const pullsOf = async (branch: string) =>
    (
      await client("alice").rest.pulls.list({ owner: "acme", repo: "widgets", state: "all" })
    ).data.filter((p) => p.head.ref === branch);
  const comment = (login: string, issue: number, body: string) =>
    client(login).rest.issues.createComment({
      owner: "acme",
      repo: "widgets",
      issue_number: issue,
      body,
    });

  it("pushes the branch, asks once, ignores an outsider's approval, opens the PR on a writer's", async () => {
    const goal = await h.startGoal("Document gear teeth", ["Write it down"]);
    const issue = goal.goal.issue.number;
    const branch = `loopx/${issue}-T1`;

    const tick = await finishRun(h, (await dispatchOneTick(h, issue)).id);
    await h.settle();
    expect(tick.jobs.report?.conclusion, tick.logs).toBe("success");
    const repo = h.sandbox.store.repoByName("acme", "widgets");
    const head = repo.branches.get(branch);
    expect(head).toBeDefined();
    expect(await pullsOf(branch)).toEqual([]);

    const held = await h.store.loadGoal(goal.goal.id);
    const gate = held?.gates.find((g) => g.status === "open");
    expect(gate, JSON.stringify(held?.gates)).toMatchObject({
      scopes: ["open_pr:T1", "review"],
      todo: "T1",
    });

    // Rita may read the repository (and so comment), not write to it.
    const rita = h.sandbox.createUser("rita");
    h.sandbox.store.repoByName("acme", "widgets").collaborators.set(rita.id, "read");
    await comment("rita", issue, `/loopx approve ${gate?.key}`);
    await h.settle();
    expect(await pullsOf(branch)).toEqual([]);
    expect(
      (await h.store.loadGoal(goal.goal.id))?.gates.find((g) => g.key === gate?.key),
    ).toMatchObject({ status: "open" });

    await comment("alice", issue, `/loopx approve ${gate?.key}`);
    await h.settle();
    const pulls = await pullsOf(branch);
    expect(pulls).toHaveLength(1);
    expect(pulls[0]?.head.sha).toBe(head);
    expect(pulls[0]?.state).toBe("open");
  }, 120_000);
});
