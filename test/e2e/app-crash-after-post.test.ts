import type { GitHubPort } from "@loopx/github";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, startHarness } from "../support/app-harness.ts";
import { expectWarning } from "../support/expected-warnings.ts";
import { fileIssue, keyedComments, label, makeEverythingDue } from "../support/ops-steps.ts";

/**
 * Scenario: the app dies right after GitHub accepted a POST, before it recorded anything.
 * The port below performs the real write and then throws, as a killed process would leave
 * it: the comment exists on GitHub, the store does not know. After a restart the outbox
 * runs the write again and must find the comment by its hidden key.
 */
describe("e2e: killed after a POST, before recording it", () => {
  let h: Harness;
  let crashes = 0;
  const crashingAfterWrites = (port: GitHubPort): GitHubPort => ({
    ...port,
    async upsertComment(...args) {
      const ref = await port.upsertComment(...args);
      if (crashes > 0 && crashes--) throw new Error("killed right after the POST");
      return ref;
    },
    async ensureComment(...args) {
      const ref = await port.ensureComment(...args);
      if (crashes > 0 && crashes--) throw new Error("killed right after the POST");
      return ref;
    },
  });

  beforeAll(async () => {
    h = await startHarness({ app: { wrapPort: crashingAfterWrites } });
  });
  afterAll(() => h.close());

  it("the sticky status comment is not posted twice", async () => {
    expectWarning(/will retry: killed right after the POST/);
    const number = await fileIssue(h, "wendy", "Index widget search");
    crashes = 1;
    await label(h, "wendy", number);
    await h.settle();
    expect(crashes).toBe(0);
    const goal = await h.store.findGoalByIssue(h.repo.id, number);
    if (!goal) throw new Error("no goal");
    // Posted, but never recorded.
    expect(await keyedComments(h, number, "status")).toHaveLength(1);
    expect((await h.store.getProjection(goal.goal.id, "status"))?.githubId ?? null).toBeNull();

    await h.restart({});
    await makeEverythingDue(h);
    h.app.outbox.kick();
    await h.settle();

    const status = await keyedComments(h, number, "status");
    expect(status).toHaveLength(1);
    expect((await h.store.getProjection(goal.goal.id, "status"))?.githubId).toBe(status[0]?.id);
    const open = (await h.store.outboxForGoal(goal.goal.id)).filter((r) => r.deadAt === null);
    expect(open.every((r) => r.attempts <= 1)).toBe(true);
    expect(await h.app.ops.snapshot()).toMatchObject({ outbox: { pending: 0 }, deadLetters: 0 });
  });

  it("a reply about an issue with no goal is not posted twice either", async () => {
    expectWarning(/will retry: killed right after the POST/);
    await h.restart({ wrapPort: crashingAfterWrites });
    const number = await fileIssue(h, "rita", "Make it sparkle");
    crashes = 1;
    await label(h, "tom", number);
    await h.settle();
    expect(crashes).toBe(0);
    expect(await keyedComments(h, number, "label-refused:tom")).toHaveLength(1);

    await h.restart({});
    await makeEverythingDue(h);
    h.app.inbox.kick();
    await h.settle();
    expect(await keyedComments(h, number, "label-refused:tom")).toHaveLength(1);
    expect((await h.app.ops.snapshot()).inbox.count).toBe(0);
  });
});
