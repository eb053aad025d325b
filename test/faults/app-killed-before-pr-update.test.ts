import { openStore, type Store } from "@loopx/store";
import { dbOf, rowsOf, sql } from "@loopx/store/testing";
import { Octokit } from "@octokit/rest";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createSandbox, type Sandbox } from "../../packages/sandbox/src/index.ts";
import { TICK_WORKFLOW } from "../support/app-harness.ts";
import { freshDatabase } from "../support/databases.ts";
import { playTick, type TickClient } from "../support/pr-ticks.ts";
import { mintTickToken, postJson } from "../support/tick-api-harness.ts";
import { type AppProcess, appProcessEnv, startAppProcess } from "./support/app-process.ts";

const serverUrl = inject("pgUrl");
const AUDIENCE = "loopx-faults";
const repo = { owner: "acme", repo: "widgets" } as const;

/**
 * Fault: the App is SIGKILLed right after a tick's report job pushed T1's branch again, while
 * it still owed T1's open PR an update (GitHub had just answered a comment edit, the PR's
 * handoff or the goal's status, with a 502).
 * While it is down, the owner approves and merges that PR. The App that comes back on the same
 * PostgreSQL reconciles with GitHub before opening anything: the PR for that very head merged,
 * so no second PR is opened, T1 is done with the merge commit as its evidence, and the goal
 * moves on to T2. (Killed before any write drained: app-killed-before-drain.test.ts.)
 */
describe.skipIf(!serverUrl)("fault: the App killed between a push and its PR update", () => {
  const secret = "killed-before-pr-update";
  let sandbox: Sandbox;
  let store: Store;
  let drop = async () => {};
  let env: Record<string, string>;
  let record: { id: number; ownerId: number };
  let app: AppProcess | null = null;

  // GitHub's clock is the sandbox's: it follows the wall clock the App signs its JWTs with.
  const keepTime = () => sandbox.clock.advance(Math.max(0, Date.now() - sandbox.clock.now()));
  const start = async () => {
    await keepTime();
    app = await startAppProcess(env);
    sandbox.setWebhookUrl(`${app.base}/api/github/webhooks`);
  };
  const running = (): AppProcess => {
    if (!app) throw new Error("the App is not running");
    return app;
  };
  const client = (): TickClient => ({
    sandbox,
    repo: { owner: "acme", name: "widgets", fullName: "acme/widgets", ...record },
    token: (runId, claims) =>
      mintTickToken(sandbox, { fullName: "acme/widgets", ...record }, runId, claims, {
        audience: AUDIENCE,
      }),
    post: (path, body, token) => postJson(`${running().base}${path}`, body, token),
  });
  const until = async (what: string, ok: () => Promise<boolean> | boolean) => {
    for (let i = 0; i < 600; i++) {
      await keepTime();
      await sandbox.settle();
      if (await ok()) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`timed out waiting until ${what}:\n${app?.output()}`);
  };

  beforeAll(async () => {
    sandbox = await createSandbox({ webhookSecret: secret });
    sandbox.runner.enabled = false;
    sandbox.ci.rule = () => "success";
    const made = sandbox.createRepo("acme/widgets", {
      files: { ".github/workflows/loopx-tick.yml": TICK_WORKFLOW },
      collaborators: { alice: "maintain" },
    });
    record = { id: made.id, ownerId: made.ownerId };
    const { app: appRecord, privateKey } = sandbox.createApp({ slug: "loopx" });
    if (!privateKey) throw new Error("no key");
    const db = await freshDatabase(serverUrl ?? "");
    drop = db.drop;
    store = await openStore({ databaseUrl: db.url });
    env = {
      ...appProcessEnv({
        sandbox,
        appId: appRecord.id,
        privateKey,
        webhookSecret: secret,
        databaseUrl: db.url,
      }),
      LOOPX_OIDC_ISSUER: sandbox.url,
      LOOPX_OIDC_AUDIENCE: AUDIENCE,
    };
    await start();
    sandbox.install(appRecord.id, "acme", ["acme/widgets"]);
    await sandbox.settle();
  });
  afterAll(async () => {
    await app?.kill();
    await store?.close();
    await sandbox?.stop();
    await drop();
  });

  it("opens no second PR for merged work: the merge completes the todo and the goal goes on", async () => {
    const alice = new Octokit({
      baseUrl: sandbox.url,
      auth: sandbox.createUserToken("alice"),
      request: { retries: 0 },
    });
    const { data: issue } = await alice.rest.issues.create({
      ...repo,
      title: "Catalogue the parts",
      body: "Every part, listed.",
    });
    await alice.rest.issues.addLabels({ ...repo, issue_number: issue.number, labels: ["loopx"] });
    const goal = async () => store.findGoalByIssue(record.id, issue.number);
    await until("the goal exists", async () => (await goal()) !== null);
    for (const title of ["List the gears", "List the cogs"]) {
      await alice.rest.issues.createComment({
        ...repo,
        issue_number: issue.number,
        body: `/loopx todo add ${title}`,
      });
      const n = title === "List the gears" ? 1 : 2;
      await until(`T${n} exists`, async () => ((await goal())?.todos.length ?? 0) >= n);
    }
    const pulls = async () =>
      (await alice.rest.pulls.list({ ...repo, state: "all" })).data.map((p) => ({
        number: p.number,
        head: p.head.ref,
        merged: p.merged_at !== null,
      }));

    // T1's first slice: pushed, and the App opened its PR.
    const first = await playTick(client(), issue.number, { "gears.md": "- gear\n" });
    await until("T1's PR is open and tracked", async () => {
      const s = await goal();
      return (s?.pullRequests.length ?? 0) === 1 && (await pulls()).length === 1;
    });
    const [pr] = await pulls();
    if (!pr) throw new Error("no PR");

    // T1's second slice pushes the branch again; the App's comment edits get a 502.
    sandbox.faults.route({ route: "issues/update-comment", status: 502 });
    const from = sandbox.requests().length;
    const second = await playTick(
      client(),
      issue.number,
      { "gears.md": "- gear\n- big gear\n" },
      {
        complete: true,
      },
    );
    expect(second.branch).toBe(first.branch);
    await until("the App's PR update met the 502", () =>
      sandbox
        .requests()
        .slice(from)
        .some((r) => r.operationId === "issues/update-comment" && r.status === 502),
    );
    await running().kill();
    app = null;
    expect((await store.ops.snapshot()).outbox.pending).toBeGreaterThan(0);

    // While the App is down, the owner approves and merges that head.
    sandbox.faults.clear();
    await alice.rest.pulls.createReview({
      ...repo,
      pull_number: pr.number,
      commit_id: second.sha,
      event: "APPROVE",
    });
    const { data: merged } = await alice.rest.pulls.merge({ ...repo, pull_number: pr.number });
    await sandbox.settle();

    // The same data, a new process; the write it owed falls due.
    await dbOf(store).execute(sql`UPDATE outbox SET next_attempt_at = now() WHERE done_at IS NULL`);
    const restartedAt = sandbox.requests().length;
    await start();
    // Owed: any write not yet done, except a reminder deferred to its day. Whether the merge
    // gate opened (and queued one) before the kill depends on timing; once the gate settles, a
    // reminder about it is never posted (app-notify-reminder.test.ts).
    const owed = async () =>
      rowsOf(
        await dbOf(store).execute(
          sql`SELECT key FROM outbox WHERE done_at IS NULL AND NOT (key LIKE '%:remind' AND next_attempt_at > now() + interval '1 hour')`,
        ),
      ).length;
    await until("T1 is done and nothing is owed", async () => {
      const t1 = (await goal())?.todos.find((t) => t.key === "T1");
      return t1?.status === "done" && (await owed()) === 0;
    });

    expect(await pulls()).toEqual([{ number: pr.number, head: first.branch, merged: true }]);
    const after = sandbox.requests().slice(restartedAt);
    expect(after.filter((r) => r.operationId === "pulls/create")).toEqual([]);
    const state = await goal();
    const t1 = state?.todos.find((t) => t.key === "T1");
    const proof = state?.evidence.filter((e) => t1?.completion?.evidenceIds.includes(e.id));
    expect(proof?.map((e) => [e.kind, e.sha])).toEqual([["pr", merged.sha]]);
    expect(state?.pullRequests.map((p) => [p.number, p.state])).toEqual([[pr.number, "merged"]]);
    expect(state?.goal.status).toBe("active");
    expect(await store.ops.snapshot()).toMatchObject({ deadLetters: 0 });
    // The goal goes on: T2 is what a tick runs next.
    const next = await client().post(
      "/api/v1/ticks",
      { goal: issue.number },
      await client().token(9990),
    );
    expect(next.body).toMatchObject({ run: true, todo: "T2" });
    expect(await running().stop()).toBe(0);
    app = null;
  }, 300_000);
});
