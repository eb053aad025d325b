import type { GitHubPort, PullSnapshot, ReviewThreads } from "@loopx/github";
import { describe, expect, it } from "vitest";
import { readPull } from "../src/pulls/read-pull.ts";

const REVIEWED = "a".repeat(40);
const NEWER = "b".repeat(40);
const repo = { owner: "acme", repo: "widgets" };

const unused = (verb: string) => () => Promise.reject(new Error(`${verb} is not read here`));

/** A port that answers only what readPull reads; `threads` counts its GraphQL reads. */
function portFor(opts: { head: string; threads: ReviewThreads; reviewId?: number }) {
  const calls = { threads: 0 };
  const pull: PullSnapshot = {
    number: 5,
    headSha: opts.head,
    headRef: "loopx/1-T1",
    baseRef: "main",
    state: "open",
    merged: false,
    author: "loopx[bot]",
    requestedReviewers: [],
    headRepo: "acme/widgets",
    draft: false,
    mergeable: true,
    mergeableState: "clean",
    mergeCommitSha: null,
    body: "",
    size: null,
  };
  const port: GitHubPort & { pull: PullSnapshot } = {
    pull,
    botLogin: () => Promise.resolve("loopx[bot]"),
    permission: () => Promise.resolve("write"),
    getIssue: unused("getIssue"),
    setIssueBody: unused("setIssueBody"),
    setIssueTitle: unused("setIssueTitle"),
    ensureComment: unused("ensureComment"),
    upsertComment: unused("upsertComment"),
    react: unused("react"),
    createSubIssue: unused("createSubIssue"),
    listSubIssues: unused("listSubIssues"),
    closeIssue: unused("closeIssue"),
    dispatchWorkflow: unused("dispatchWorkflow"),
    defaultBranch: unused("defaultBranch"),
    getPull: () => Promise.resolve(port.pull),
    requestReviewers: unused("requestReviewers"),
    findPullsByHead: unused("findPullsByHead"),
    createPull: unused("createPull"),
    updatePull: unused("updatePull"),
    listChecks: () => Promise.resolve([{ name: "unit", status: "success", url: null }]),
    listStatuses: () =>
      Promise.resolve([{ name: "ext/ci", status: "failure", url: "https://ci.example/1" }]),
    listPullFiles: unused("listPullFiles"),
    listReviewThreads: () => {
      calls.threads += 1;
      return Promise.resolve(opts.threads);
    },
    listReviews: () =>
      Promise.resolve(
        opts.reviewId === undefined
          ? []
          : [
              {
                id: opts.reviewId,
                author: "alice",
                state: "changes_requested" as const,
                commitId: REVIEWED,
                body: "Rename it.",
                submittedAt: new Date(0),
                url: null,
              },
            ],
      ),
    readConfig: unused("readConfig"),
    listRunJobs: unused("listRunJobs"),
    requiredChecks: () => Promise.resolve(["unit"]),
    commitMessage: () => Promise.resolve("T1: the change"),
    listWaitingRuns: () => Promise.resolve([]),
    approveRun: unused("approveRun"),
    cancelRun: unused("cancelRun"),
    createCheckRun: unused("createCheckRun"),
    updateCheckRun: unused("updateCheckRun"),
  };
  return { port, calls };
}

const read = (port: GitHubPort) => readPull(port, repo, 5, { mergeGate: true, checks: [] });
const thread = (resolved: boolean, reviewId: number | null = 7) => ({ resolved, reviewId });

describe("readPull: review threads and commit statuses", () => {
  it("a review the head moved past, its threads all resolved: settled", async () => {
    const { port } = portFor({
      head: NEWER,
      reviewId: 7,
      threads: { threads: [thread(true), thread(true, 3)], complete: true },
    });
    expect((await read(port)).threadsResolved).toBe(true);
  });

  it("any thread unresolved, even another review's: the review stands", async () => {
    const { port } = portFor({
      head: NEWER,
      reviewId: 7,
      threads: { threads: [thread(true), thread(false, 3)], complete: true },
    });
    expect((await read(port)).threadsResolved).toBe(false);
  });

  it("a review with no thread of its own has nothing resolved: its points stand", async () => {
    const { port } = portFor({
      head: NEWER,
      reviewId: 7,
      threads: { threads: [thread(true, 3)], complete: true },
    });
    expect((await read(port)).threadsResolved).toBe(false);
  });

  it("more threads than one page: not known to be resolved", async () => {
    const { port } = portFor({
      head: NEWER,
      reviewId: 7,
      threads: { threads: [thread(true)], complete: false },
    });
    expect((await read(port)).threadsResolved).toBe(false);
  });

  it("threads are not read when they cannot matter (review on the head, or no review)", async () => {
    const onHead = portFor({
      head: REVIEWED,
      reviewId: 7,
      threads: { threads: [], complete: true },
    });
    expect((await read(onHead.port)).threadsResolved).toBe(false);
    const none = portFor({ head: NEWER, threads: { threads: [], complete: true } });
    expect((await read(none.port)).threadsResolved).toBe(false);
    expect(onHead.calls.threads + none.calls.threads).toBe(0);
  });

  it("commit statuses join the check runs of the head", async () => {
    const { port } = portFor({ head: NEWER, threads: { threads: [], complete: true } });
    expect((await read(port)).checks).toEqual({
      sha: NEWER,
      list: [
        { name: "unit", status: "success", url: null, runId: null },
        { name: "ext/ci", status: "failure", url: "https://ci.example/1", runId: null },
      ],
    });
  });

  it("a check run's app id and output reach the kernel, which reads a failure's signature from them", async () => {
    const { port } = portFor({ head: NEWER, threads: { threads: [], complete: true } });
    const output = "FAILED tests/test_cart.py::test_total - assert 9 == 10";
    port.listChecks = () =>
      Promise.resolve([
        { name: "unit", status: "failure", url: null, app: "github-actions", appId: 15368, output },
      ]);
    const seen = await read(port);
    expect(seen.checks?.list[0]).toEqual({
      name: "unit",
      status: "failure",
      url: null,
      runId: null,
      appId: 15368,
      output,
    });
  });

  it("LoopX's own check runs are not CI, known by the App that wrote them, not by their name", async () => {
    const { port } = portFor({ head: NEWER, threads: { threads: [], complete: true } });
    port.listChecks = () =>
      Promise.resolve([
        { name: "unit", status: "success", url: null, app: "github-actions" },
        { name: "LoopX / gates", status: "failure", url: null, app: "loopx" },
        // CI running agent code may take LoopX's name: it is still CI's word.
        { name: "LoopX / claim", status: "failure", url: null, app: "github-actions" },
      ]);
    port.requiredChecks = () => Promise.resolve(["unit", "LoopX / gates"]);
    const seen = await read(port);
    expect(seen.checks?.list.map((c) => [c.name, c.status])).toEqual([
      ["unit", "success"],
      ["LoopX / claim", "failure"],
      ["ext/ci", "failure"],
    ]);
    // A ruleset may require LoopX / gates to bind the merge button; CI does not wait on it.
    expect(seen.required).toEqual(["unit"]);
  });

  it("the required set joins the base's rules with checks: from the config; a skip marker is read", async () => {
    const { port } = portFor({ head: NEWER, threads: { threads: [], complete: true } });
    const plain = await readPull(port, repo, 5, { mergeGate: true, checks: ["e2e", "unit"] });
    expect(plain.required).toEqual(["unit", "e2e"]);
    expect(plain.skipCi).toBe(false);
    port.commitMessage = () => Promise.resolve("T1: quick fix [skip ci]");
    // CI did not run on a skipped head: no required check has a result there.
    port.listChecks = () => Promise.resolve([]);
    // Runs wait for approval only on a fork's head (GitHub's "Approving workflow runs from forks").
    port.pull = { ...port.pull, headRepo: "mallory/widgets" };
    port.listWaitingRuns = () =>
      Promise.resolve([
        { name: "CI", status: "action_required", url: "https://gh.example/runs/9", runId: 9 },
      ]);
    const skipped = await readPull(port, repo, 5, { mergeGate: true, checks: [] });
    expect(skipped.skipCi).toBe(true);
    expect(skipped.checks?.list).toContainEqual({
      name: "CI",
      status: "action_required",
      url: "https://gh.example/runs/9",
      runId: 9,
    });
  });

  it("reads the head commit for a skip marker only when a required check has no result", async () => {
    const { port } = portFor({ head: NEWER, threads: { threads: [], complete: true } });
    let reads = 0;
    port.commitMessage = () => {
      reads += 1;
      return Promise.resolve("T1: tidy [skip ci]");
    };
    // Every required check reported on this head: CI ran whatever the message says.
    const ran = await readPull(port, repo, 5, { mergeGate: true, checks: [] });
    expect([ran.skipCi, reads]).toEqual([false, 0]);
    // A required check never reported: the marker may be why.
    const missing = await readPull(port, repo, 5, { mergeGate: true, checks: ["e2e"] });
    expect([missing.skipCi, reads]).toEqual([true, 1]);
  });

  it("runs awaiting approval are read for a fork's head (or a deleted fork's), never for the base repository's own", async () => {
    const { port } = portFor({ head: NEWER, threads: { threads: [], complete: true } });
    let asked = 0;
    port.listWaitingRuns = () => {
      asked += 1;
      return Promise.resolve([]);
    };
    await read(port);
    port.pull = { ...port.pull, headRepo: "ACME/Widgets" };
    await read(port);
    expect(asked).toBe(0);
    port.pull = { ...port.pull, headRepo: "mallory/widgets" };
    await read(port);
    port.pull = { ...port.pull, headRepo: null };
    await read(port);
    expect(asked).toBe(2);
  });
});
