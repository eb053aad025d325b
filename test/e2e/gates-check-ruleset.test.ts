import { Octokit } from "@octokit/rest";
import { afterEach, describe, expect, it } from "vitest";
import { botComments, openPulls, personClient, playTick } from "../support/pr-ticks.ts";
import { startTickHarness, type TickHarness } from "../support/tick-api-harness.ts";

const repo = { owner: "acme", repo: "widgets" } as const;
const GATES = "LoopX / gates";

/** The owner requires LoopX's own check, from this App only, on main (as the README shows). */
async function requireGatesCheck(h: TickHarness, appId: number) {
  const admin = new Octokit({ baseUrl: h.sandbox.url, auth: h.sandbox.createUserToken("acme") });
  await admin.rest.repos.createRepoRuleset({
    ...repo,
    name: "LoopX gates bind the merge",
    enforcement: "active",
    conditions: { ref_name: { include: ["~DEFAULT_BRANCH"], exclude: [] } },
    rules: [
      {
        type: "required_status_checks",
        parameters: {
          required_status_checks: [{ context: GATES, integration_id: appId }],
          strict_required_status_checks_policy: false,
        },
      },
    ],
  });
}

/** LoopX's check runs on a head, newest first, as the sandbox holds them. */
function gatesRuns(h: TickHarness, sha: string) {
  return [...h.sandbox.store.checkRuns.values()]
    .filter((r) => r.name === GATES && r.headSha === sha)
    .sort((a, b) => b.id - a.id);
}

/**
 * The installation predates the App asking for checks: write and never accepted it; its
 * tokens (minted already, the App holds one, or later) carry what it granted.
 */
function withoutChecksWrite(h: TickHarness) {
  for (const inst of h.sandbox.store.installations.values()) inst.permissions.checks = "read";
  for (const token of h.sandbox.store.tokens.values()) {
    if (token.kind === "installation") token.permissions.checks = "read";
  }
}

/** A green PR of T1 with its merge gate open; CI passes, the head is `tick.sha`. */
async function gatedPull(h: TickHarness) {
  h.sandbox.ci.rule = () => "success";
  const goal = await h.startGoal("Speed up rendering", ["Cache layout"]);
  const issue = goal.goal.issue.number;
  const tick = await playTick(h, issue, { "src/layout.ts": "export const cache = 1;\n" });
  await h.sandbox.idle();
  await h.settle();
  const pr = (await openPulls(h)).find((p) => p.head.ref === tick.branch);
  if (!pr) throw new Error("no PR was opened");
  const state = await h.store.loadGoal(goal.goal.id);
  const gate = state?.gates.find((g) => g.pr?.number === pr.number);
  if (gate?.status !== "open") throw new Error("no open merge gate on the PR");
  return { goalId: goal.goal.id, issue, tick, pr, gate };
}

/**
 * Scenario: a repository requires `LoopX / gates` from the LoopX App on main. LoopX's PR goes
 * green and its merge gate opens: the check fails and the merge button refuses the PR. A
 * writer approves the gate with a comment: the check passes and the merge goes through. And
 * an installation that never accepted `checks: write` gets one notice and keeps its gates as
 * comment gates; once its owner accepts, the gates check appears without another notice.
 */
describe("e2e: the gates check binds the merge", () => {
  let h: TickHarness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it("fails while the merge gate is open, blocks the merge, passes once approved by comment", async () => {
    h = await startTickHarness({ onPostgres: true });
    h.sandbox.faults.enforceRulesetsAtMerge = true;
    const app = [...h.sandbox.store.apps.values()].find((a) => a.slug === "loopx");
    if (!app) throw new Error("no LoopX app");
    await requireGatesCheck(h, app.id);
    const { goalId, issue, tick, pr, gate } = await gatedPull(h);

    const [failing] = gatesRuns(h, tick.sha);
    expect(failing).toMatchObject({ appId: app.id, status: "completed", conclusion: "failure" });
    expect(failing?.output.title).toBe(`Waiting for ${gate.key}`);
    const alice = personClient(h, "alice");
    await expect(alice.rest.pulls.merge({ ...repo, pull_number: pr.number })).rejects.toMatchObject(
      { status: 405, message: expect.stringContaining(`"${GATES}" is failing`) },
    );
    // LoopX's own failing check is not CI: no repair todo, and the PR still reads green.
    let state = await h.store.loadGoal(goalId);
    expect(state?.todos.map((t) => t.key)).toEqual(["T1"]);
    expect(state?.pullRequests[0]?.monitor.checks.map((c) => c.name)).toEqual(["ci"]);

    // GitHub's clock moves on before the approving comment, as a person's would.
    await h.sandbox.clock.advance(60_000);
    await alice.rest.issues.createComment({
      ...repo,
      issue_number: issue,
      body: `/loopx approve ${gate.key}`,
    });
    await h.settle();
    state = await h.store.loadGoal(goalId);
    expect(state?.gates.find((g) => g.key === gate.key)?.status).toBe("approved");
    const runs = gatesRuns(h, tick.sha);
    // The same run, updated in place: one check of that name on the head.
    expect(runs.map((r) => [r.id, r.conclusion])).toEqual([[failing?.id, "success"]]);

    const { data: merged } = await alice.rest.pulls.merge({ ...repo, pull_number: pr.number });
    expect(merged.merged).toBe(true);
  }, 180_000);

  it("without checks: write: one notice, no check runs, and the gate still works by comment", async () => {
    h = await startTickHarness({ onPostgres: true });
    withoutChecksWrite(h);
    const from = h.sandbox.requests().length;
    const { goalId, issue, tick, gate } = await gatedPull(h);

    expect(gatesRuns(h, tick.sha)).toEqual([]);
    const notices = () =>
      botComments(h as TickHarness, issue).filter((c) => c.key === "notify:checks_unavailable");
    expect(notices()).toHaveLength(1);
    expect(notices()[0]?.body).toContain("checks: write");

    await h.sandbox.clock.advance(60_000);
    await personClient(h, "alice").rest.issues.createComment({
      ...repo,
      issue_number: issue,
      body: `/loopx approve ${gate.key}`,
    });
    await h.settle();
    const state = await h.store.loadGoal(goalId);
    expect(state?.gates.find((g) => g.key === gate.key)?.status).toBe("approved");
    // GitHub refused once; LoopX never asked again, and said it once.
    const creates = h.sandbox
      .requests()
      .slice(from)
      .filter((r) => r.operationId === "checks/create");
    expect(creates.map((r) => r.status)).toEqual([403]);
    expect(notices()).toHaveLength(1);
    expect(gatesRuns(h, tick.sha)).toEqual([]);
  }, 180_000);

  it("once the owner accepts checks: write, the gates check appears on the PR head; still one notice", async () => {
    h = await startTickHarness({ onPostgres: true });
    withoutChecksWrite(h);
    const app = [...h.sandbox.store.apps.values()].find((a) => a.slug === "loopx");
    const installation = [...h.sandbox.store.installations.values()].find(
      (i) => i.appId === app?.id,
    );
    if (!app || !installation) throw new Error("no LoopX installation");
    const from = h.sandbox.requests().length;
    const { issue, tick, gate } = await gatedPull(h);
    const notices = () =>
      botComments(h as TickHarness, issue).filter((c) => c.key === "notify:checks_unavailable");
    expect(notices()).toHaveLength(1);
    expect(gatesRuns(h, tick.sha)).toEqual([]);

    // Minutes later, well within the hour the App's token lives, the owner accepts.
    await h.sandbox.clock.advance(5 * 60_000);
    h.sandbox.acceptPermissions(installation.id, { checks: "write" }, "acme");
    await h.settle();

    const [gates] = gatesRuns(h, tick.sha);
    expect(gates).toMatchObject({ appId: app.id, status: "completed", conclusion: "failure" });
    expect(gates?.output.title).toBe(`Waiting for ${gate.key}`);
    const creates = h.sandbox
      .requests()
      .slice(from)
      .filter((r) => r.operationId === "checks/create");
    // Refused once before the acceptance, written once after it: no refusal in between.
    expect(creates.map((r) => r.status)).toEqual([403, 201]);
    expect(notices()).toHaveLength(1);

    // From then on the check follows the gate like any other.
    await h.sandbox.clock.advance(60_000);
    await personClient(h, "alice").rest.issues.createComment({
      ...repo,
      issue_number: issue,
      body: `/loopx approve ${gate.key}`,
    });
    await h.settle();
    expect(gatesRuns(h, tick.sha).map((r) => [r.id, r.conclusion])).toEqual([
      [gates?.id, "success"],
    ]);
    expect(notices()).toHaveLength(1);
  }, 180_000);
});
