import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reconcilePulls } from "../../app/src/pulls/monitor-pull.ts";
import { firstPull, personClient } from "../support/pr-ticks.ts";
import { startTickHarness, type TickHarness } from "../support/tick-api-harness.ts";

const THREADS = `query ($owner: String!, $name: String!, $number: Int!) {
  repository(owner: $owner, name: $name) {
    pullRequest(number: $number) { reviewThreads(first: 100) { nodes { id } } }
  }
}`;
const SET = (verb: "resolveReviewThread" | "unresolveReviewThread") =>
  `mutation ($id: ID!) { ${verb}(input: { threadId: $id }) { thread { isResolved } } }`;

/**
 * Scenario: changes were requested, the author answered in the threads and resolved them,
 * and the head moved past the review — the reviewer only has to look again, so no review
 * todo. With one thread unresolved, the review still stands and makes its todo. The review's
 * webhooks are lost, so LoopX first reads the review after the push (resolution has no REST
 * field: the App reads reviewThreads over GraphQL).
 */
describe("e2e: resolved review threads", () => {
  let h: TickHarness;
  beforeAll(async () => {
    h = await startTickHarness();
  });
  afterAll(() => h.close());

  it("all threads resolved and a newer head → no todo; one unresolved → the review todo", async () => {
    h.sandbox.ci.rule = () => "success";
    const { goal, tick, pr } = await firstPull(h, "Speed up rendering", ["Cache layout"], {
      "src/a.ts": "1\n",
    });

    // Every review event until the push is lost (the review, its line comments, the
    // resolutions): LoopX first reads the review after the head moved past it.
    for (const event of [
      "pull_request_review",
      "pull_request_review_comment",
      "pull_request_review_thread",
    ])
      h.sandbox.faults.webhook({ mode: "drop", event });
    const alice = personClient(h, "alice");
    const review = (
      await alice.rest.pulls.createReview({
        owner: "acme",
        repo: "widgets",
        pull_number: pr.number,
        commit_id: tick.sha,
        event: "REQUEST_CHANGES",
        body: "Two things, see the threads.",
        comments: [
          { path: "src/a.ts", line: 1, body: "Name the constant." },
          { path: "src/a.ts", line: 1, body: "Add a test." },
        ],
      })
    ).data;
    const { repository } = await alice.graphql<{
      repository: { pullRequest: { reviewThreads: { nodes: { id: string }[] } } };
    }>(THREADS, { owner: "acme", name: "widgets", number: pr.number });
    const ids = repository.pullRequest.reviewThreads.nodes.map((n) => n.id);
    expect(ids).toHaveLength(2);
    for (const id of ids) await alice.graphql(SET("resolveReviewThread"), { id });

    await h.sandbox.settle();
    expect(h.sandbox.deliveries().filter((d) => d.dropped)).toHaveLength(5);
    h.sandbox.faults.clear();
    // The author pushes past the review (synchronize, then CI on the new head).
    const next = h.sandbox.push(h.repo.fullName, tick.branch, { "src/a.ts": "2\n" }, "alice");
    await h.sandbox.idle();
    await h.settle();
    await reconcilePulls(h.app.deps, [goal.goal.id]);
    let state = await h.store.loadGoal(goal.goal.id);
    expect(state?.pullRequests[0]?.headSha).toBe(next);
    expect(state?.pullRequests[0]?.monitor).toMatchObject({
      changesRequested: { id: review.id, by: "alice", commitId: tick.sha },
      threadsResolved: true,
    });
    expect(state?.todos.filter((t) => t.kind === "review")).toEqual([]);

    // The reviewer reopens one thread (pull_request_review_thread.unresolved): the review
    // stands again, and the event alone brings it to the monitor.
    await alice.graphql(SET("unresolveReviewThread"), { id: ids[1] });
    await h.sandbox.settle();
    await h.settle();
    state = await h.store.loadGoal(goal.goal.id);
    expect(state?.pullRequests[0]?.monitor.threadsResolved).toBe(false);
    expect(state?.todos.filter((t) => t.kind === "review").map((t) => t.title)).toEqual([
      `Address @alice's review on #${pr.number}`,
    ]);
  }, 120_000);
});
