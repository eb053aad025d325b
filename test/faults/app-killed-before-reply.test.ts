import { readKey } from "@loopx/github";
import type { Store } from "@loopx/store";
import { dbOf, isNull, sql, tables } from "@loopx/store/testing";
import { Octokit } from "@octokit/rest";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Sandbox } from "../../packages/sandbox/src/index.ts";
import { type KillableApp, startKillableApp } from "./support/killable-app.ts";

const serverUrl = inject("pgUrl");
const repo = { owner: "acme", repo: "widgets" } as const;

/**
 * Fault: the App process is SIGKILLed after it committed its answer to two people and before
 * GitHub took the replies: a writer's refused command (a reply on a goal) and a triager's
 * goal label (a reply on an issue with no goal). The sandbox refuses comments until the
 * kill, so the window is deterministic. A new process on the same PostgreSQL delivers each
 * reply exactly once, and the command's reaction stays single.
 */
describe.skipIf(!serverUrl)("fault: the App killed between the commit and a reply", () => {
  let k: KillableApp;
  let sandbox: Sandbox;
  let store: Store;
  const as = (login: string) =>
    new Octokit({
      baseUrl: sandbox.url,
      auth: sandbox.createUserToken(login),
      request: { retries: 0 },
    });
  const until = async (what: string, done: () => Promise<boolean> | boolean) => {
    for (let i = 0; i < 600; i++) {
      if (await done()) return;
      await sandbox.settle();
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`timed out waiting for ${what}`);
  };

  beforeAll(async () => {
    k = await startKillableApp({
      serverUrl: serverUrl ?? "",
      webhookSecret: "killed-before-reply-secret",
      collaborators: { alice: "maintain", tom: "triage" },
    });
    ({ sandbox, store } = k);
  });
  afterAll(() => k?.close());

  const ops = () => store.ops;
  const comments = async (number: number) =>
    (await as("alice").rest.issues.listComments({ ...repo, issue_number: number })).data
      .filter((c) => c.user?.login === "loopx[bot]")
      .map((c) => readKey(c.body ?? ""));
  const tried = (operationId: string) =>
    sandbox.requests().some((r) => r.operationId === operationId && r.status === 503);

  it("a restarted App delivers the replies the killed one committed, each once", async () => {
    const { data: goalIssue } = await as("alice").rest.issues.create({ ...repo, title: "Cache" });
    await as("alice").rest.issues.addLabels({
      ...repo,
      issue_number: goalIssue.number,
      labels: ["loopx"],
    });
    await until("the goal's status comment", async () =>
      (await comments(goalIssue.number)).includes("status"),
    );
    const { data: other } = await as("tom").rest.issues.create({ ...repo, title: "Mine" });

    const { data: command } = await as("alice").rest.issues.createComment({
      ...repo,
      issue_number: goalIssue.number,
      body: "/loopx approve G9",
    });
    await as("tom").rest.issues.addLabels({
      ...repo,
      issue_number: other.number,
      labels: ["loopx"],
    });
    // Their webhooks wait in the sandbox until it settles; from here GitHub refuses every
    // comment, so the App's replies stay in its outbox. (A refused reaction is dropped, not
    // retried: an acknowledgement is not state.)
    sandbox.faults.route({ route: "issues/create-comment", status: 503 });
    const replyKey = `reply:comment:${command.id}`;
    const rows = async () =>
      (
        await dbOf(store)
          .select({ key: tables.outbox.key })
          .from(tables.outbox)
          .where(isNull(tables.outbox.doneAt))
      ).map((r) => r.key);
    await until("both replies committed and tried", async () => {
      const pending = await rows();
      return (
        pending.includes(replyKey) &&
        pending.includes("label-refused:tom") &&
        tried("issues/create-comment")
      );
    });
    await k.running.shift()?.kill();
    expect(await comments(goalIssue.number)).not.toContain(replyKey);
    expect(await comments(other.number)).toEqual([]);

    // GitHub recovers; the backoff the dead process chose falls due; a new process starts.
    sandbox.faults.clear();
    await dbOf(store).execute(sql`UPDATE outbox SET next_attempt_at = now() WHERE done_at IS NULL`);
    const second = await k.start();
    await until("the outbox drained", async () => (await ops().snapshot()).outbox.pending === 0);
    await sandbox.settle();

    const onGoal = await comments(goalIssue.number);
    expect(onGoal.filter((k) => k === replyKey)).toHaveLength(1);
    expect((await comments(other.number)).filter((k) => k === "label-refused:tom")).toHaveLength(1);
    const { data: reactions } = await as("alice").rest.reactions.listForIssueComment({
      ...repo,
      comment_id: command.id,
    });
    expect(reactions.map((r) => r.content)).toEqual(["eyes"]);
    const created = sandbox
      .requests()
      .filter(
        (r) =>
          r.operationId === "issues/create-comment" &&
          r.status === 201 &&
          r.by?.startsWith("installation:"),
      );
    expect(created).toHaveLength(onGoal.length + 1);
    expect(await second.stop()).toBe(0);
    k.running.length = 0;
  });
});
