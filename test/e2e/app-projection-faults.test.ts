import { BLOCK_BEGIN } from "@loopx/github";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, startHarness } from "../support/app-harness.ts";
import { expectWarning } from "../support/expected-warnings.ts";
import { fileIssue, keyedComments, label, waitUntil } from "../support/ops-steps.ts";

/**
 * Scenario: GitHub answers a projection write with a 5xx, another with the secondary-limit
 * 403 (retry-after). The outbox retries each (backoff, or when GitHub said) and nothing is
 * lost: the final GitHub state is complete.
 */
describe("e2e: 5xx and secondary-limit 403 on projection writes", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ app: { outbox: { retryBaseMs: 100, retryMaxMs: 1000 } } });
  });
  afterAll(() => h.close());

  it("the status comment, the checklist block and the dispatch all land", async () => {
    expectWarning(/^outbox body for goal .*: will retry: .*GitHub answered 403/);
    expectWarning(/^outbox status for goal .*: will retry: .*GitHub answered 502/);
    const number = await fileIssue(h, "wendy", "Speed up widget search");
    const before = h.sandbox.requests().length;
    h.sandbox.faults.route({ route: "issues/create-comment", status: 502, times: 1 });
    h.sandbox.faults.route({ route: "issues/update", status: 403, retryAfter: 1, times: 1 });
    await label(h, "wendy", number);
    await h.settle();

    await waitUntil(h, async () => (await h.app.ops.snapshot()).outbox.pending === 0);

    const requests = h.sandbox.requests().slice(before);
    expect(
      requests.some((r) => r.operationId === "issues/create-comment" && r.status === 502),
    ).toBe(true);
    expect(requests.some((r) => r.operationId === "issues/update" && r.status === 403)).toBe(true);

    expect(await keyedComments(h, number, "status")).toHaveLength(1);
    const issue = await h
      .as("wendy")
      .rest.issues.get({ owner: "acme", repo: "widgets", issue_number: number });
    expect(issue.data.body).toContain(BLOCK_BEGIN);
    const dispatched = requests.filter(
      (r) => r.operationId === "actions/create-workflow-dispatch" && r.status < 300,
    );
    expect(dispatched).toHaveLength(1);
    expect((await h.app.ops.snapshot()).deadLetters).toBe(0);
  });
});
