import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setup } from "./helpers.ts";

/**
 * A suite announces `check_suite.completed` when its last run completes, to every installed
 * app (not only its own), and again each time a re-run completes it anew; an update that
 * completes nothing announces nothing (packages/sandbox/README.md cites GitHub's docs).
 */
describe("sandbox: check suites complete once per completion", () => {
  let t: Awaited<ReturnType<typeof setup>>;
  let ci: Awaited<ReturnType<typeof setup>>["bot"];
  const o = { owner: "acme", repo: "widgets" } as const;
  beforeAll(async () => {
    t = await setup();
    // A second app (the CI) owns the suite; the first (LoopX's) only watches.
    const { app } = t.sandbox.createApp({ slug: "ci-bot" });
    const installation = t.sandbox.install(app.id, "acme", ["acme/widgets"]);
    const { Octokit } = await import("@octokit/rest");
    ci = new Octokit({
      baseUrl: t.sandbox.url,
      auth: t.sandbox.installationToken(installation.id),
      request: { retries: 0 },
    });
  });
  afterAll(() => t.sandbox.stop());

  const completions = (sha: string) =>
    t.sandbox.emitted
      .filter(
        (e) =>
          e.event === "check_suite" &&
          e.payload.action === "completed" &&
          (e.payload.check_suite as { head_sha?: string }).head_sha === sha,
      )
      .map((e) => {
        const s = e.payload.check_suite as { status: string; conclusion: string };
        const installation = e.payload.installation as { id: number };
        return [installation.id === t.installation.id ? "watcher" : "ci", s.status, s.conclusion];
      });

  it("announces the last run's completion to every app, and again after a re-run", async () => {
    const sha = t.sandbox.push("acme/widgets", "feature", { "a.txt": "1\n" }, "alice");
    const lint = (await ci.rest.checks.create({ ...o, name: "lint", head_sha: sha })).data;
    const unit = (
      await ci.rest.checks.create({ ...o, name: "unit", head_sha: sha, status: "in_progress" })
    ).data;
    await ci.rest.checks.update({ ...o, check_run_id: lint.id, conclusion: "success" });
    await t.sandbox.settle();
    // One run of two done: the suite is still going, nothing is announced.
    expect(completions(sha)).toEqual([]);

    await ci.rest.checks.update({ ...o, check_run_id: unit.id, conclusion: "failure" });
    // Output, or the same conclusion again, on a completed run completes nothing anew.
    await ci.rest.checks.update({
      ...o,
      check_run_id: unit.id,
      output: { title: "unit", summary: "3 failed" },
    });
    await ci.rest.checks.update({ ...o, check_run_id: unit.id, conclusion: "failure" });
    await t.sandbox.settle();
    expect(completions(sha)).toEqual([
      ["watcher", "completed", "failure"],
      ["ci", "completed", "failure"],
    ]);

    // A re-run of unit: a new run reopens the suite, its completion announces it again, and
    // the newest run of each name is the verdict.
    const again = (
      await ci.rest.checks.create({ ...o, name: "unit", head_sha: sha, status: "queued" })
    ).data;
    const reopened = (await ci.rest.checks.listSuitesForRef({ ...o, ref: sha })).data;
    expect(reopened.check_suites.map((s) => [s.status, s.conclusion])).toEqual([["queued", null]]);
    await ci.rest.checks.update({ ...o, check_run_id: again.id, conclusion: "success" });
    await t.sandbox.settle();
    expect(completions(sha).slice(2)).toEqual([
      ["watcher", "completed", "success"],
      ["ci", "completed", "success"],
    ]);

    // A run created already completed (a CI that reports only the result) completes it anew.
    await ci.rest.checks.create({
      ...o,
      name: "lint",
      head_sha: sha,
      status: "completed",
      conclusion: "neutral",
    });
    await t.sandbox.settle();
    expect(completions(sha).slice(4)).toEqual([
      ["watcher", "completed", "neutral"],
      ["ci", "completed", "neutral"],
    ]);
  });
});
