import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  client,
  errorsText,
  examples,
  exerciseManifestFlow,
  exerciseOAuth,
  fixture,
  o,
  responseValidator,
  setup,
  webhookValidator,
} from "./helpers.ts";

/**
 * Drives the real @octokit/rest client through every supported route, then checks every response
 * against GitHub's OpenAPI schema and every webhook against GitHub's webhook schemas/examples.
 */
describe("sandbox contract: @octokit/rest through every route", () => {
  let t: Awaited<ReturnType<typeof setup>>;
  beforeAll(async () => {
    t = await setup();
    const { bot, alice, bob, appOctokit, sandbox } = t;
    await appOctokit.rest.apps.getAuthenticated();
    await appOctokit.rest.apps.listInstallations();
    await appOctokit.rest.apps.getInstallation({ installation_id: t.installation.id });
    await appOctokit.rest.apps.getRepoInstallation(o);
    await bot.rest.apps.listReposAccessibleToInstallation();
    await bot.rest.repos.get(o);
    await bot.rest.repos.getContent({ ...o, path: ".github/loopx.yml" });
    await bot.rest.repos.getContent({ ...o, path: ".github" });
    await bot.rest.repos.getCollaboratorPermissionLevel({ ...o, username: "alice" });
    const goal = (await alice.rest.issues.create({ ...o, title: "Goal", body: "Ship it" })).data;
    await bot.rest.issues.addLabels({ ...o, issue_number: goal.number, labels: ["loopx"] });
    await bot.rest.issues.removeLabel({ ...o, issue_number: goal.number, name: "loopx" });
    await bot.rest.issues.update({
      ...o,
      issue_number: goal.number,
      body: "Ship it\n<!-- loopx:begin -->",
    });
    await bot.rest.issues.get({ ...o, issue_number: goal.number });
    await bot.rest.issues.listForRepo({ ...o, state: "all" });
    const comment = (
      await bot.rest.issues.createComment({ ...o, issue_number: goal.number, body: "status" })
    ).data;
    await bot.rest.issues.updateComment({ ...o, comment_id: comment.id, body: "status v2" });
    await bot.rest.issues.getComment({ ...o, comment_id: comment.id });
    await bot.rest.issues.listComments({ ...o, issue_number: goal.number });
    const human = (
      await bob.rest.issues.createComment({
        ...o,
        issue_number: goal.number,
        body: "/loopx status",
      })
    ).data;
    await bot.rest.reactions.createForIssueComment({ ...o, comment_id: human.id, content: "eyes" });
    await bot.rest.reactions.listForIssueComment({ ...o, comment_id: human.id });
    await bob.rest.issues.deleteComment({ ...o, comment_id: human.id });
    const sub1 = (await bot.rest.issues.create({ ...o, title: "T1", labels: ["loopx:todo"] })).data;
    const sub2 = (await bot.rest.issues.create({ ...o, title: "T2" })).data;
    await bot.rest.issues.addSubIssue({ ...o, issue_number: goal.number, sub_issue_id: sub1.id });
    await bot.rest.issues.addSubIssue({ ...o, issue_number: goal.number, sub_issue_id: sub2.id });
    await bot.rest.issues.reprioritizeSubIssue({
      ...o,
      issue_number: goal.number,
      sub_issue_id: sub2.id,
      before_id: sub1.id,
    });
    await bot.rest.issues.listSubIssues({ ...o, issue_number: goal.number });
    await bot.rest.issues.getParent({ ...o, issue_number: sub1.number });
    await bot.rest.issues.removeSubIssue({
      ...o,
      issue_number: goal.number,
      sub_issue_id: sub2.id,
    });
    await bot.rest.issues.update({
      ...o,
      issue_number: sub2.number,
      state: "closed",
      state_reason: "not_planned",
    });
    await bot.rest.issues.update({ ...o, issue_number: sub2.number, state: "open" });
    await bot.rest.issues.update({ ...o, issue_number: sub2.number, assignees: ["alice", "bob"] });
    await bot.rest.issues.update({ ...o, issue_number: sub2.number, assignees: ["bob"] });
    sandbox.push("acme/widgets", "loopx/1-T1", { "src/a.ts": "export {};\n" });
    const pr = (
      await bot.rest.pulls.create({
        ...o,
        title: "T1",
        head: "loopx/1-T1",
        base: "main",
        body: `Fixes #${sub1.number}\nRefs #${goal.number}`,
      })
    ).data;
    await bot.rest.pulls.get({ ...o, pull_number: pr.number });
    await bot.rest.pulls.update({ ...o, pull_number: pr.number, title: "T1: widgets" });
    await bot.rest.pulls.list(o);
    await bot.rest.pulls.requestReviewers({ ...o, pull_number: pr.number, reviewers: ["bob"] });
    await bot.rest.pulls.listRequestedReviewers({ ...o, pull_number: pr.number });
    await bot.rest.pulls.removeRequestedReviewers({
      ...o,
      pull_number: pr.number,
      reviewers: ["bob"],
    });
    await bot.rest.pulls.requestReviewers({ ...o, pull_number: pr.number, reviewers: ["bob"] });
    await bot.rest.repos.getBranch({ ...o, branch: "loopx/1-T1" });
    await bot.rest.git.getRef({ ...o, ref: "heads/loopx/1-T1" });
    await bot.rest.repos.getCommit({ ...o, ref: "loopx/1-T1" });
    sandbox.push("acme/widgets", "loopx/1-T1", { "src/b.ts": "export {};\n" });
    const head = (await bot.rest.pulls.get({ ...o, pull_number: pr.number })).data.head.sha;
    const pending = (
      await bob.rest.pulls.createReview({ ...o, pull_number: pr.number, body: "hmm" })
    ).data;
    await bob.rest.pulls.submitReview({
      ...o,
      pull_number: pr.number,
      review_id: pending.id,
      event: "COMMENT",
      body: "ok",
    });
    await alice.rest.pulls.createReview({
      ...o,
      pull_number: pr.number,
      event: "APPROVE",
      commit_id: head,
    });
    await bot.rest.pulls.listReviews({ ...o, pull_number: pr.number });
    await bot.rest.pulls.listFiles({ ...o, pull_number: pr.number });
    const run = (
      await bot.rest.checks.create({ ...o, name: "ci", head_sha: head, status: "in_progress" })
    ).data;
    await bot.rest.checks.update({
      ...o,
      check_run_id: run.id,
      conclusion: "success",
      output: { title: "ok", summary: "all green" },
    });
    await bot.rest.checks.get({ ...o, check_run_id: run.id });
    await bot.rest.checks.listForRef({ ...o, ref: head });
    const suite = (await bot.rest.checks.createSuite({ ...o, head_sha: head })).data;
    await bot.rest.checks.getSuite({ ...o, check_suite_id: suite.id });
    await bot.rest.checks.listSuitesForRef({ ...o, ref: "loopx/1-T1" });
    // Review threads (GraphQL: pr-signals.test.ts checks its answers), commit statuses,
    // branch protection, and a PR from a fork.
    const threaded = (
      await alice.rest.pulls.createReview({
        ...o,
        pull_number: pr.number,
        event: "COMMENT",
        body: "notes",
        comments: [{ path: "src/b.ts", line: 1, body: "why?" }],
      })
    ).data;
    const threads = await bot.graphql<{
      repository: { pullRequest: { reviewThreads: { nodes: { id: string }[] } } };
    }>(
      `query ($owner: String!, $name: String!, $number: Int!) {
        repository(owner: $owner, name: $name) { pullRequest(number: $number) {
          reviewThreads(first: 10) { nodes { id comments(first: 1) { nodes { pullRequestReview { databaseId } } } } }
        } }
      }`,
      { owner: o.owner, name: o.repo, number: pr.number },
    );
    expect(threaded.id).toBeGreaterThan(0);
    await alice.graphql(
      "mutation ($id: ID!) { resolveReviewThread(input: { threadId: $id }) { thread { isResolved } } }",
      { id: threads.repository.pullRequest.reviewThreads.nodes[0]?.id },
    );
    await alice.rest.repos.createCommitStatus({
      ...o,
      sha: head,
      state: "failure",
      context: "ext/ci",
      target_url: "https://ci.example/runs/1",
      description: "2 tests failed",
    });
    await bot.rest.repos.getCombinedStatusForRef({ ...o, ref: head });
    const owner = client(sandbox, sandbox.createUserToken("acme"));
    await owner.rest.repos.updateBranchProtection({
      ...o,
      branch: "main",
      required_status_checks: { strict: true, contexts: ["ext/ci"] },
      enforce_admins: null,
      required_pull_request_reviews: null,
      restrictions: null,
    });
    await owner.rest.repos.createRepoRuleset({
      ...o,
      name: "required CI",
      enforcement: "active",
      conditions: { ref_name: { include: ["~DEFAULT_BRANCH"], exclude: [] } },
      rules: [
        {
          type: "required_status_checks",
          parameters: {
            required_status_checks: [{ context: "ci" }],
            strict_required_status_checks_policy: false,
          },
        },
      ],
    });
    await bot.rest.repos.getBranchRules({ ...o, branch: "main" });
    const fork = (await bob.rest.repos.createFork(o)).data;
    sandbox.push(fork.full_name, "loopx/1-T1", { "src/c.ts": "export {};\n" }, "bob");
    await bob.rest.pulls.create({
      ...o,
      title: "From a fork",
      head: "bob:loopx/1-T1",
      base: "main",
    });
    await bot.rest.pulls.merge({ ...o, pull_number: pr.number, sha: head });
    // Its head is in main now: GitHub refuses a PR that would bring main nothing.
    const nothingAhead = await bot.rest.pulls
      .create({ ...o, title: "T1 again", head: "loopx/1-T1", base: "main" })
      .then(
        () => null,
        (error: { status: number; response: { data: unknown } }) => error,
      );
    expect(nothingAhead?.status).toBe(422);
    expect(nothingAhead?.response.data).toMatchObject({
      message: "Validation Failed",
      errors: [
        {
          resource: "PullRequest",
          code: "custom",
          message: "No commits between main and loopx/1-T1",
        },
      ],
    });
    await bot.rest.actions.listRepoWorkflows(o);
    await bot.rest.actions.createWorkflowDispatch({
      ...o,
      workflow_id: "loopx.yml",
      ref: "main",
      inputs: { goal: "1" },
    });
    const dispatched = await bot.request(
      "POST /repos/{owner}/{repo}/actions/workflows/{workflow_id}/dispatches",
      { ...o, workflow_id: "loopx.yml", ref: "main", return_run_details: true },
    );
    const runId = (dispatched.data as { workflow_run_id: number }).workflow_run_id;
    expect((await sandbox.runner.wait(runId)).conclusion).toBe("success");
    await sandbox.idle();
    await bot.rest.actions.getWorkflowRun({ ...o, run_id: runId });
    await bot.rest.actions.listJobsForWorkflowRun({ ...o, run_id: runId });
    await bot.rest.actions.listWorkflowRunsForRepo(o);
    await bot.rest.actions.listWorkflowRuns({ ...o, workflow_id: "loopx.yml" });
    // Queued runs (the runner off) to cancel, force-cancel, and approve (refused: not a fork's).
    sandbox.runner.enabled = false;
    const queue = async () =>
      (
        (
          await bot.request(
            "POST /repos/{owner}/{repo}/actions/workflows/{workflow_id}/dispatches",
            { ...o, workflow_id: "loopx.yml", ref: "main", return_run_details: true },
          )
        ).data as { workflow_run_id: number }
      ).workflow_run_id;
    const toCancel = await queue();
    await bot.request("POST /repos/{owner}/{repo}/actions/runs/{run_id}/cancel", {
      ...o,
      run_id: toCancel,
    });
    const toForce = await queue();
    await bot.request("POST /repos/{owner}/{repo}/actions/runs/{run_id}/force-cancel", {
      ...o,
      run_id: toForce,
    });
    await expect(
      bot.request("POST /repos/{owner}/{repo}/actions/runs/{run_id}/approve", {
        ...o,
        run_id: toForce,
      }),
    ).rejects.toMatchObject({ status: 403 });
    sandbox.runner.enabled = true;
    await sandbox.settle();
    const deliveries = (await appOctokit.rest.apps.listWebhookDeliveries({ per_page: 5 })).data;
    const first = deliveries[0];
    if (!first) throw new Error("no deliveries");
    await appOctokit.rest.apps.getWebhookDelivery({ delivery_id: first.id });
    await appOctokit.rest.apps.redeliverWebhookDelivery({ delivery_id: first.id });
    const spare = (
      await appOctokit.rest.apps.createInstallationAccessToken({
        installation_id: t.installation.id,
      })
    ).data.token;
    await client(sandbox, spare).rest.apps.revokeInstallationAccessToken();
    await exerciseOAuth(sandbox, t.app.clientId);
    await exerciseManifestFlow(sandbox, "alice");
    await sandbox.settle();
  });
  afterAll(() => t.sandbox.stop());

  it("exercised every supported route, each with a schema in the fixture", () => {
    const hit = new Set(t.sandbox.requests().map((r) => r.operationId));
    for (const route of t.sandbox.routes) {
      // GraphQL has no OpenAPI description: pr-signals.test.ts checks its answers.
      if (route.operationId === "graphql") {
        expect(hit.has("graphql")).toBe(true);
        continue;
      }
      expect(
        fixture.operations[route.operationId],
        `${route.operationId} has no schema`,
      ).toBeDefined();
      expect(hit.has(route.operationId), `${route.operationId} was not exercised`).toBe(true);
    }
    expect(t.sandbox.unsupported()).toEqual([]);
  });

  it("every response matches GitHub's OpenAPI schema for its status", () => {
    const failures: string[] = [];
    for (const entry of t.sandbox.requests()) {
      if (!entry.operationId || entry.operationId === "graphql") continue;
      const validate = responseValidator(entry.operationId, entry.status);
      if (validate === undefined) {
        failures.push(`${entry.operationId} ${entry.status}: status not in the spec`);
        continue;
      }
      if (validate === null) continue;
      if (!validate(entry.response))
        failures.push(`${entry.method} ${entry.path} ${entry.status}:\n${errorsText(validate)}`);
    }
    expect(failures).toEqual([]);
  });

  it("every webhook payload matches GitHub's webhook schema and the shape of a real example", () => {
    const failures: string[] = [];
    const seen = new Set<string>();
    for (const { event, payload } of t.sandbox.emitted) {
      const action = typeof payload.action === "string" ? payload.action : undefined;
      seen.add(`${event}.${action}`);
      const validate = webhookValidator(event, action);
      if (!validate) {
        failures.push(`${event}.${action}: no schema`);
        continue;
      }
      if (!validate(payload)) failures.push(`${event}.${action}:\n${errorsText(validate)}`);
      const example = examples
        .find((e) => e.name === event)
        ?.examples.find((x) => x.action === action);
      if (example) {
        const missing = Object.keys(example).filter(
          (k) => !(k in payload) && k !== "organization" && k !== "enterprise",
        );
        if (missing.length > 0)
          failures.push(`${event}.${action}: keys missing vs example: ${missing.join(",")}`);
        for (const key of [
          "issue",
          "comment",
          "pull_request",
          "check_run",
          "workflow_run",
          "review",
        ]) {
          const ex = example[key];
          const got = payload[key];
          if (ex && typeof ex === "object" && got && typeof got === "object") {
            // `deployment` appears only on deployment-bound check runs.
            const lack = Object.keys(ex).filter((k) => !(k in got) && k !== "deployment");
            if (lack.length > 0)
              failures.push(
                `${event}.${action}.${key}: keys missing vs example: ${lack.join(",")}`,
              );
          }
        }
      }
    }
    expect(failures).toEqual([]);
    for (const want of [
      "issues.opened",
      "issues.labeled",
      "issues.unlabeled",
      "issues.edited",
      "issues.closed",
      "issues.reopened",
      "issues.assigned",
      "issues.unassigned",
      "issue_comment.created",
      "issue_comment.edited",
      "issue_comment.deleted",
      "sub_issues.sub_issue_added",
      "sub_issues.parent_issue_added",
      "sub_issues.sub_issue_removed",
      "pull_request.opened",
      "pull_request.edited",
      "pull_request.synchronize",
      "pull_request.review_requested",
      "pull_request.review_request_removed",
      "push.undefined",
      "pull_request.closed",
      "pull_request_review.submitted",
      "check_run.created",
      "check_run.completed",
      "check_suite.completed",
      "workflow_run.requested",
      "workflow_run.in_progress",
      "workflow_run.completed",
      "installation.created",
      "status.undefined",
      "fork.undefined",
      "pull_request_review_comment.created",
      "pull_request_review_thread.resolved",
    ]) {
      expect(seen.has(want), `${want} was not emitted`).toBe(true);
    }
  });
});
