import { Octokit } from "@octokit/rest";
import { afterEach, describe, expect, it } from "vitest";
import { client, o, setup } from "./helpers.ts";

type T = Awaited<ReturnType<typeof setup>>;
let t: T | undefined;
afterEach(async () => {
  await t?.sandbox.stop();
  t = undefined;
});

const THREADS = `query ($owner: String!, $name: String!, $number: Int!) {
  repository(owner: $owner, name: $name) {
    pullRequest(number: $number) {
      reviewThreads(first: 100) {
        pageInfo { hasNextPage }
        nodes { id isResolved comments(first: 1) { nodes { pullRequestReview { databaseId } } } }
      }
    }
  }
}`;
const RESOLVE =
  "mutation ($id: ID!) { resolveReviewThread(input: { threadId: $id }) { thread { id isResolved } } }";

/** Raw POST /graphql: errors come back with 200, as GitHub answers them. */
async function graphql(t: T, token: string, query: string, variables: Record<string, unknown>) {
  const res = await fetch(`${t.sandbox.url}/graphql`, {
    method: "POST",
    headers: { authorization: `bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ query, variables }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function openPull(t: T) {
  t.sandbox.push("acme/widgets", "loopx/1-T1", { "src/a.ts": "export {};\n" }, "alice");
  const pr = (
    await t.bot.rest.pulls.create({ ...o, title: "T1", head: "loopx/1-T1", base: "main" })
  ).data;
  return pr;
}

describe("sandbox: what the PR monitor reads beyond checks", () => {
  it("review threads: read and resolved through GraphQL (also at /api/graphql), by a writer only", async () => {
    t = await setup();
    const pr = await openPull(t);
    const review = (
      await t.bob.rest.pulls.createReview({
        ...o,
        pull_number: pr.number,
        event: "REQUEST_CHANGES",
        body: "Two things.",
        comments: [
          { path: "src/a.ts", line: 1, body: "Name it." },
          { path: "src/a.ts", line: 1, body: "Test it." },
        ],
      })
    ).data;
    // Probot's octokit on GHE posts to /api/graphql.
    const ghe = new Octokit({
      baseUrl: `${t.sandbox.url}/api/v3`,
      auth: t.sandbox.createUserToken("alice"),
    });
    type Threads = {
      repository: {
        pullRequest: {
          reviewThreads: {
            pageInfo: { hasNextPage: boolean };
            nodes: {
              id: string;
              isResolved: boolean;
              comments: { nodes: { pullRequestReview: { databaseId: number } }[] };
            }[];
          };
        };
      };
    };
    const read = () =>
      ghe.graphql<Threads>(THREADS, { owner: "acme", name: "widgets", number: pr.number });
    const first = (await read()).repository.pullRequest.reviewThreads;
    expect(first.pageInfo.hasNextPage).toBe(false);
    expect(
      first.nodes.map((n) => [n.isResolved, n.comments.nodes[0]?.pullRequestReview.databaseId]),
    ).toEqual([
      [false, review.id],
      [false, review.id],
    ]);
    expect(first.nodes[0]?.id).toMatch(/^PRRT_/);

    // A reader may not resolve; the answer is GitHub's FORBIDDEN error, and nothing changes.
    t.sandbox.createUser("mallory");
    const mallory = t.sandbox.createUserToken("mallory");
    const refused = await graphql(t, mallory, RESOLVE, { id: first.nodes[0]?.id });
    expect(refused.status).toBe(200);
    expect(refused.body.errors).toEqual([
      expect.objectContaining({ type: "FORBIDDEN", path: ["resolveReviewThread"] }),
    ]);
    const resolved = await graphql(t, t.sandbox.createUserToken("alice"), RESOLVE, {
      id: first.nodes[0]?.id,
    });
    expect(resolved.body).toEqual({
      data: { resolveReviewThread: { thread: { id: first.nodes[0]?.id, isResolved: true } } },
    });
    const after = (await read()).repository.pullRequest.reviewThreads.nodes;
    expect(after.map((n) => n.isResolved)).toEqual([true, false]);
  });

  it("GraphQL answers GitHub-shaped errors for what it does not understand", async () => {
    t = await setup();
    const pr = await openPull(t);
    const token = t.sandbox.createUserToken("alice");
    const vars = { owner: "acme", name: "widgets", number: pr.number };
    const unknown = await graphql(t, token, THREADS.replace("isResolved", "isOutdated"), vars);
    expect(unknown.body).toEqual({
      errors: [
        expect.objectContaining({
          message: "Field 'isOutdated' doesn't exist on type 'PullRequestReviewThread'",
          extensions: expect.objectContaining({ code: "undefinedField" }),
        }),
      ],
    });
    const syntax = await graphql(t, token, "query { repository(owner: ", {});
    expect(syntax.body).toEqual({
      errors: [{ message: "Parse error on end of file", locations: [expect.any(Object)] }],
    });
    const missing = await graphql(t, token, THREADS, { ...vars, number: 999 });
    expect(missing.body).toEqual({
      data: { repository: { pullRequest: null } },
      errors: [
        expect.objectContaining({
          type: "NOT_FOUND",
          path: ["repository", "pullRequest"],
          message: "Could not resolve to a PullRequest with the number of 999.",
        }),
      ],
    });
    const unpaged = await graphql(t, token, THREADS.replace("(first: 100)", ""), vars);
    expect(unpaged.body.errors).toEqual([
      expect.objectContaining({ type: "MISSING_PAGINATION_BOUNDARIES" }),
    ]);
    const undeclared = await graphql(t, token, THREADS.replace("$number: Int!", ""), vars);
    expect(undeclared.body.errors).toEqual([
      expect.objectContaining({
        extensions: expect.objectContaining({ code: "variableNotDefined" }),
      }),
    ]);
    const anonymous = await fetch(`${t.sandbox.url}/graphql`, { method: "POST", body: "{}" });
    expect(anonymous.status).toBe(401);
  });

  it("commit statuses: latest per context, combined as GitHub does; a status webhook each", async () => {
    t = await setup();
    const pr = await openPull(t);
    const alice = t.alice;
    const combined = async () =>
      (await t?.bot.rest.repos.getCombinedStatusForRef({ ...o, ref: pr.head.sha }))?.data;
    expect(await combined()).toMatchObject({ state: "pending", total_count: 0 });
    const post = (context: string, state: "pending" | "success" | "failure" | "error") =>
      alice.rest.repos.createCommitStatus({ ...o, sha: pr.head.sha, context, state });
    await post("ext/ci", "pending");
    await post("ext/lint", "success");
    expect((await combined())?.state).toBe("pending");
    await post("ext/ci", "error");
    const now = await combined();
    expect(now?.state).toBe("failure");
    expect(now?.statuses.map((s) => [s.context, s.state]).sort()).toEqual([
      ["ext/ci", "error"],
      ["ext/lint", "success"],
    ]);
    await post("ext/ci", "success");
    expect((await combined())?.state).toBe("success");
    await t.sandbox.settle();
    expect(t.sandbox.emitted.filter((e) => e.event === "status")).toHaveLength(4);
    // The app may read statuses but not write them (its manifest asks statuses: read).
    await expect(
      t.bot.rest.repos.createCommitStatus({ ...o, sha: pr.head.sha, state: "success" }),
    ).rejects.toMatchObject({ status: 403 });
  });

  it("strict branch protection: a PR whose head lacks the base's tip is `behind`", async () => {
    t = await setup();
    const pr = await openPull(t);
    const state = async () => {
      const bot = t?.bot;
      if (!bot) throw new Error("no sandbox");
      await bot.rest.pulls.get({ ...o, pull_number: pr.number }); // computes mergeability
      return (await bot.rest.pulls.get({ ...o, pull_number: pr.number })).data.mergeable_state;
    };
    t.sandbox.push("acme/widgets", "main", { "docs/x.md": "x\n" }, "alice");
    expect(await state()).toBe("clean");
    const acme = client(t.sandbox, t.sandbox.createUserToken("acme"));
    const protect = {
      ...o,
      branch: "main",
      required_status_checks: { strict: true, contexts: [] },
      enforce_admins: null,
      required_pull_request_reviews: null,
      restrictions: null,
    };
    // Only an admin may protect a branch.
    await expect(t.bob.rest.repos.updateBranchProtection(protect)).rejects.toMatchObject({
      status: 403,
    });
    await acme.rest.repos.updateBranchProtection(protect);
    expect(await state()).toBe("behind");
    expect((await t.bot.rest.repos.getBranch({ ...o, branch: "main" })).data.protected).toBe(true);
    await expect(t.alice.rest.pulls.merge({ ...o, pull_number: pr.number })).rejects.toMatchObject({
      status: 405,
      message: expect.stringContaining("not up to date with the base branch"),
    });
    // A branch cut from the current base is up to date: clean under the same rule.
    t.sandbox.push("acme/widgets", "loopx/1-T2", { "src/b.ts": "1\n" }, "alice");
    const fresh = (
      await t.bot.rest.pulls.create({ ...o, title: "T2", head: "loopx/1-T2", base: "main" })
    ).data;
    await t.bot.rest.pulls.get({ ...o, pull_number: fresh.number });
    const read = await t.bot.rest.pulls.get({ ...o, pull_number: fresh.number });
    expect(read.data.mergeable_state).toBe("clean");
  });

  it("forks: a PR from bob's fork has the fork as its head, and pushes to the fork move it", async () => {
    t = await setup();
    const fork = (await t.bob.rest.repos.createFork(o)).data;
    expect(fork).toMatchObject({
      full_name: "bob/widgets",
      fork: true,
      parent: { full_name: "acme/widgets" },
    });
    const first = t.sandbox.push("bob/widgets", "loopx/1-T1", { "src/x.ts": "1\n" }, "bob");
    const pr = (
      await t.bob.rest.pulls.create({ ...o, title: "Fork", head: "bob:loopx/1-T1", base: "main" })
    ).data;
    expect(pr.head).toMatchObject({
      label: "bob:loopx/1-T1",
      ref: "loopx/1-T1",
      sha: first,
      repo: { full_name: "bob/widgets", fork: true },
    });
    // `head` filters by the head repository's owner.
    const listed = async (head: string) =>
      (await t?.bot.rest.pulls.list({ ...o, head }))?.data.map((p) => p.number);
    expect(await listed("bob:loopx/1-T1")).toEqual([pr.number]);
    expect(await listed("acme:loopx/1-T1")).toEqual([]);
    // The same branch name in the base repository is another PR, not a duplicate.
    t.sandbox.push("acme/widgets", "loopx/1-T1", { "src/y.ts": "1\n" }, "alice");
    const own = (
      await t.bot.rest.pulls.create({ ...o, title: "Own", head: "loopx/1-T1", base: "main" })
    ).data;
    expect(own.head.repo?.full_name).toBe("acme/widgets");
    expect(await listed("acme:loopx/1-T1")).toEqual([own.number]);

    const second = t.sandbox.push("bob/widgets", "loopx/1-T1", { "src/x.ts": "2\n" }, "bob");
    await t.sandbox.settle();
    const sync = t.sandbox.emitted.filter(
      (e) => e.event === "pull_request" && e.payload.action === "synchronize",
    );
    expect(sync.map((e) => [e.payload.number, e.payload.after])).toEqual([[pr.number, second]]);
    const read = (await t.bot.rest.pulls.get({ ...o, pull_number: pr.number })).data;
    expect(read.head.sha).toBe(second);
    // The fork's commits are in the base repository (refs/pull/N/head), so it can merge.
    const merged = await t.alice.rest.pulls.merge({ ...o, pull_number: pr.number });
    expect(merged.data.merged).toBe(true);
    // GitHub keeps the fork's head in the base repository as refs/pull/N/head.
    const forked = t.sandbox.store
      .git(t.sandbox.repoByFullName("acme/widgets"))
      .resolve(`refs/pull/${pr.number}/head`);
    expect(forked).toBe(second);
  });
});
