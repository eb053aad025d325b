import { GitHubError, type GitHubPort, type PullSnapshot } from "@loopx/github";
import { describe, expect, it } from "vitest";
import { state as goalState } from "../../packages/core/test/fixtures.ts";
import { approveRuns } from "../src/outbox/approve-runs.ts";

const effect = {
  kind: "approve_runs" as const,
  key: "gate:G1:approve_runs@abc",
  gate: "G1",
  pr: 7,
  runIds: [41, 42],
};

function fakePort(headRepo: string, refuse: ReadonlySet<number> = new Set()) {
  const calls = { approved: [] as number[], comments: [] as { key: string; body: string }[] };
  const pull: PullSnapshot = {
    number: 7,
    headSha: "a".repeat(40),
    headRef: "fix",
    baseRef: "main",
    state: "open",
    merged: false,
    author: "mallory",
    requestedReviewers: [],
    headRepo,
    draft: false,
    mergeable: true,
    mergeableState: "clean",
    mergeCommitSha: null,
    body: "",
    size: null,
  };
  const port: Pick<GitHubPort, "getPull" | "approveRun" | "ensureComment"> = {
    getPull: () => Promise.resolve(pull),
    approveRun: (_repo, runId) => {
      if (refuse.has(runId)) return Promise.reject(new GitHubError("not a fork run", 403, null));
      calls.approved.push(runId);
      return Promise.resolve();
    },
    ensureComment: (_issue, key, body) => {
      calls.comments.push({ key, body });
      return Promise.resolve({ id: 1, created: true });
    },
  };
  return { port, calls };
}

describe("approveRuns: the approve endpoint where GitHub allows it, else Approve and run", () => {
  const state = goalState();
  it("a fork PR's runs are approved through the API, and the reply says so", async () => {
    const { port, calls } = fakePort("mallory/widgets");
    await approveRuns(port, state, effect, "https://github.example");
    expect(calls.approved).toEqual([41, 42]);
    expect(calls.comments).toHaveLength(1);
    expect(calls.comments[0]?.body).toContain("LoopX approved the 2 workflow runs waiting on #7");
  });

  it("a same-repository PR is never approved by API: the reply points to Approve and run", async () => {
    const { port, calls } = fakePort(`${state.goal.repo.owner}/${state.goal.repo.name}`);
    await approveRuns(port, state, effect, "https://github.example");
    expect(calls.approved).toEqual([]);
    expect(calls.comments[0]?.body).toContain('press "Approve and run"');
    expect(calls.comments[0]?.body).toContain("https://github.example/");
  });

  it("a run GitHub refuses to approve leaves the person's button, named in the reply", async () => {
    const { port, calls } = fakePort("mallory/widgets", new Set([42]));
    await approveRuns(port, state, effect, "https://github.example");
    expect(calls.approved).toEqual([41]);
    expect(calls.comments[0]?.body).toContain("LoopX approved 1 of 2");
    expect(calls.comments[0]?.body).toContain("Approve and run");
  });
});
