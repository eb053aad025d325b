import { BLOCK_BEGIN, readKey } from "@loopx/github";
import type { Store } from "@loopx/store";
import { dbOf, sql } from "@loopx/store/testing";
import { Octokit } from "@octokit/rest";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Sandbox } from "../../packages/sandbox/src/index.ts";
import { type KillableApp, startKillableApp } from "./support/killable-app.ts";

const serverUrl = inject("pgUrl");

/**
 * Fault: the App process is SIGKILLed after it committed a transition and before its outbox
 * wrote anything to GitHub (every write was failing, so the rows were still pending). A new
 * process on the same PostgreSQL drains the outbox: the projection converges — one status
 * comment, one checklist block, one dispatch — and nothing is written twice.
 * (Killed right after a POST, before recording it: test/e2e/app-crash-after-post.test.ts.)
 */
describe.skipIf(!serverUrl)("fault: the App killed between commit and outbox drain", () => {
  let k: KillableApp;
  let sandbox: Sandbox;
  let store: Store;
  const repo = { owner: "acme", repo: "widgets" } as const;

  beforeAll(async () => {
    k = await startKillableApp({
      serverUrl: serverUrl ?? "",
      webhookSecret: "killed-process-secret",
      collaborators: { alice: "maintain" },
    });
    ({ sandbox, store } = k);
  });
  afterAll(() => k?.close());

  const pending = async () => (await store.ops.snapshot()).outbox.pending;

  it("a restarted App drains what the killed one committed, once", async () => {
    const alice = new Octokit({
      baseUrl: sandbox.url,
      auth: sandbox.createUserToken("alice"),
      request: { retries: 0 },
    });
    // GitHub refuses every projection write: whatever the App commits stays in its outbox.
    for (const route of [
      "issues/create-comment",
      "issues/update",
      "issues/update-comment",
      "actions/create-workflow-dispatch",
    ]) {
      sandbox.faults.route({ route, status: 503 });
    }
    const { data: issue } = await alice.rest.issues.create({
      ...repo,
      title: "Cache widgets",
      body: "Slow.",
    });
    await alice.rest.issues.addLabels({ ...repo, issue_number: issue.number, labels: ["loopx"] });
    await sandbox.settle();
    // Committed (the goal exists) and tried (GitHub said 503), not drained.
    while (
      !(await store.findGoalByIssue(
        sandbox.store.repoByName("acme", "widgets").id,
        issue.number,
      )) ||
      !sandbox.requests().some((r) => r.operationId === "issues/create-comment" && r.status === 503)
    ) {
      await new Promise((r) => setTimeout(r, 100));
    }
    await k.running.shift()?.kill();
    expect(await pending()).toBeGreaterThan(0);
    const listComments = () =>
      alice.rest.issues.listComments({ ...repo, issue_number: issue.number });
    expect((await listComments()).data).toHaveLength(0);

    // GitHub recovers; the backoff the dead process chose falls due; a new process starts.
    sandbox.faults.clear();
    await dbOf(store).execute(sql`UPDATE outbox SET next_attempt_at = now() WHERE done_at IS NULL`);
    const second = await k.start();
    while ((await pending()) > 0) {
      await sandbox.settle();
      await new Promise((r) => setTimeout(r, 100));
    }
    await sandbox.settle();

    const comments = (await listComments()).data;
    expect(comments.filter((c) => readKey(c.body ?? "") === "status")).toHaveLength(1);
    expect(new Set(comments.map((c) => readKey(c.body ?? ""))).size).toBe(comments.length);
    const { data: after } = await alice.rest.issues.get({ ...repo, issue_number: issue.number });
    expect((after.body ?? "").split(BLOCK_BEGIN)).toHaveLength(2);
    const dispatched = sandbox
      .requests()
      .filter((r) => r.operationId === "actions/create-workflow-dispatch" && r.status < 300);
    expect(dispatched).toHaveLength(1);
    const posted = sandbox
      .requests()
      .filter((r) => r.operationId === "issues/create-comment" && r.status === 201);
    expect(posted).toHaveLength(comments.length);
    expect(await second.stop()).toBe(0);
    k.running.length = 0;
  });
});
