import { AWAITING_PULL_REQUEST, type GoalState } from "@loopx/core";
import { Octokit } from "@octokit/rest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reconcilePulls } from "../../app/src/pulls/monitor-pull.ts";
import { expectWarning } from "../support/expected-warnings.ts";
import { openPulls, personClient, playTick } from "../support/pr-ticks.ts";
import { startTickHarness, type TickHarness } from "../support/tick-api-harness.ts";

const repo = { owner: "acme", repo: "widgets" } as const;

/**
 * Scenario: the base requires `ci` (a ruleset). The repository's CI is an app of its own; its
 * `ci` run on the PR's head concludes `skipped` (a job whose `if:` was false), and its re-run on
 * the same head `neutral`. Neither is success: the todo the agent says it finished stays open,
 * no merge gate opens, LoopX asks its owners. A success on another commit changes nothing; a
 * successful re-run on the exact head is green, and the merge gate opens on that head.
 */
describe("e2e: a skipped or neutral required check is not green", () => {
  let h: TickHarness;
  let ciBot: Octokit;
  beforeAll(async () => {
    h = await startTickHarness();
    const { app } = h.sandbox.createApp({ slug: "ci-bot" });
    const installation = h.sandbox.install(app.id, "acme", ["acme/widgets"]);
    h.sandbox.ci.appId = app.id;
    ciBot = new Octokit({
      baseUrl: h.sandbox.url,
      auth: h.sandbox.installationToken(installation.id),
      request: { retries: 0 },
    });
  });
  afterAll(() => h.close());

  it("skipped, then neutral on the same head ask and open no merge gate; success there is green", async () => {
    // The sandbox delivers every App's webhooks to the one URL it has: LoopX also receives the
    // CI app's deliveries, tries them (and the replies they plan, from the outbox) with the CI
    // app's installation, and GitHub answers 404.
    expectWarning(/will retry: .*GitHub answered 404/);
    h.sandbox.ci.rule = ({ check }) => (check === "ci" ? "skipped" : "success");
    const goal = await h.startGoal("Speed up rendering", ["Cache layout"]);
    const id = goal.goal.id;
    const issue = goal.goal.issue.number;
    // The agent says it is done: only green on its PR's head (then the merge) could show it.
    const tick = await playTick(
      h,
      issue,
      { "src/layout.ts": "export const cache = 1;\n" },
      { complete: true },
    );
    await h.sandbox.idle();
    await h.settle();
    const pr = (await openPulls(h)).find((p) => p.head.ref === tick.branch);
    if (!pr) throw new Error(`no PR was opened for ${tick.branch}`);
    expect(pr.head.sha).toBe(tick.sha);

    const load = async (): Promise<GoalState> => {
      await reconcilePulls(h.app.deps, [id]);
      await h.settle();
      const s = await h.store.loadGoal(id);
      if (!s) throw new Error("the goal is gone");
      return s;
    };
    // Oldest first: a re-run adds a run under the same name.
    // CI's runs on the head; LoopX's own `LoopX / gates` there is not CI.
    const runsOnHead = async () =>
      (await ciBot.rest.checks.listForRef({ ...repo, ref: tick.sha })).data.check_runs
        .filter((r) => !r.name.startsWith("LoopX / "))
        .sort((a, b) => a.id - b.id)
        .map((r) => [r.name, r.conclusion]);
    const status = () =>
      String(
        h.sandbox
          .issue(h.repo.fullName, issue)
          .comments_list.find((c) => String(c.body).includes("#### Pull requests"))?.body,
      );
    let question = "";
    const notGreen = (s: GoalState, conclusion: string) => {
      const watched = s.pullRequests[0];
      expect(watched?.headSha).toBe(tick.sha);
      expect(watched?.monitor.required).toEqual(["ci"]);
      expect(watched?.monitor.checks.map((c) => [c.name, c.status])).toEqual([["ci", conclusion]]);
      expect(s.gates.some((g) => g.scopes.includes("merge"))).toBe(false);
      const asking = s.gates.filter((g) => g.status === "open");
      expect(asking.map((g) => g.scopes)).toEqual([[`ci:${pr.number}`]]);
      // One question per head: a later reading of the same head asks nothing new.
      question ||= asking[0]?.key ?? "";
      expect(asking[0]?.key).toBe(question);
      const todo = s.todos.find((t) => t.key === tick.todo);
      expect([todo?.status, todo?.blockedReason, todo?.completion]).toEqual([
        "blocked",
        AWAITING_PULL_REQUEST,
        null,
      ]);
      expect(s.evidence.some((e) => e.kind === "check")).toBe(false);
      expect(status()).not.toContain("required checks green");
    };
    const rerun = async (sha: string, conclusion: "neutral" | "success") => {
      await ciBot.rest.checks.create({
        ...repo,
        name: "ci",
        head_sha: sha,
        status: "completed",
        conclusion,
        output: { title: `ci: ${conclusion}`, summary: "re-run" },
      });
      await h.sandbox.idle();
    };

    expect(await runsOnHead()).toEqual([["ci", "skipped"]]);
    const first = await load();
    notGreen(first, "skipped");
    expect(first.gates.find((g) => g.key === question)?.question).toContain("ci (skipped)");

    // CI is re-run on the same head and concludes neutral: the newest run is the verdict.
    await rerun(tick.sha, "neutral");
    expect(await runsOnHead()).toEqual([
      ["ci", "skipped"],
      ["ci", "neutral"],
    ]);
    notGreen(await load(), "neutral");

    // A success on another commit (main's head) is not the PR's head.
    const { data: main } = await personClient(h, "alice").rest.repos.getBranch({
      ...repo,
      branch: "main",
    });
    expect(main.commit.sha).not.toBe(tick.sha);
    await rerun(main.commit.sha, "success");
    notGreen(await load(), "neutral");

    // A successful re-run on the exact head: green, and the merge gate asks about that head.
    await rerun(tick.sha, "success");
    const s = await load();
    expect(s.pullRequests[0]?.monitor.checks.map((c) => [c.name, c.status])).toEqual([
      ["ci", "success"],
    ]);
    const merge = s.gates.filter((g) => g.scopes.includes("merge"));
    expect(merge.map((g) => [g.status, g.pr?.number, g.pr?.headSha])).toEqual([
      ["open", pr.number, tick.sha],
    ]);
    expect(
      s.gates.filter((g) => g.scopes.includes(`ci:${pr.number}`)).map((g) => g.status),
    ).not.toContain("open");
    expect(status()).toContain(`#${pr.number} for ${tick.todo} · open · required checks green`);
    // Green makes the PR mergeable; the todo still completes only when its PR merges.
    expect(s.todos.find((t) => t.key === tick.todo)?.status).toBe("blocked");
  }, 120_000);
});
