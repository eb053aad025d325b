import type { CheckRun, CheckSuite, WorkflowRun } from "../state/types.ts";
import { type Flavor, iso, isoOrNull, type Json, nodeId, type Renderer } from "./core.ts";

function pullRefs(r: Renderer, repoId: number, sha: string): Json[] {
  const repo = r.store.repo(repoId);
  const ref = { id: repo.id, url: r.repoUrl(repo), name: repo.name };
  return (
    [...r.store.pulls.values()]
      // GitHub lists only PRs whose head is in this repository: a fork's PRs never appear.
      .filter((p) => p.repoId === repoId && p.headRepoId === repoId && p.headSha === sha)
      .map((p) => ({
        id: r.store.issueByNumber(repoId, p.number).id,
        number: p.number,
        url: `${r.repoUrl(repo)}/pulls/${p.number}`,
        head: { ref: p.headRef, sha: p.headSha, repo: ref },
        base: { ref: p.baseRef, sha: p.baseSha, repo: ref },
      }))
  );
}

function headCommit(sha: string, at: number): Json {
  const person = { name: "Sandbox", email: "sandbox@example.invalid" };
  return {
    id: sha,
    tree_id: sha,
    message: "sandbox commit",
    timestamp: iso(at),
    author: person,
    committer: person,
  };
}

export function renderSuite(r: Renderer, suite: CheckSuite, flavor: Flavor = "rest"): Json {
  const repo = r.store.repo(suite.repoId);
  const app = r.store.apps.get(suite.appId);
  const runs = [...r.store.checkRuns.values()].filter((c) => c.suiteId === suite.id);
  const out: Json = {
    id: suite.id,
    node_id: nodeId("CS", suite.id),
    head_branch: suite.headBranch,
    head_sha: suite.headSha,
    status: suite.status,
    conclusion: suite.conclusion,
    url: `${r.repoUrl(repo)}/check-suites/${suite.id}`,
    before: null,
    after: suite.headSha,
    pull_requests: pullRefs(r, repo.id, suite.headSha),
    app: app ? r.app(app, flavor) : null,
    created_at: iso(suite.createdAt),
    updated_at: iso(suite.updatedAt),
    rerequestable: true,
    runs_rerequestable: false,
    latest_check_runs_count: runs.length,
    check_runs_url: `${r.repoUrl(repo)}/check-suites/${suite.id}/check-runs`,
    head_commit: headCommit(suite.headSha, suite.createdAt),
  };
  if (flavor === "rest") out.repository = r.repo(repo);
  return out;
}

export function renderCheckRun(r: Renderer, run: CheckRun, flavor: Flavor = "rest"): Json {
  const repo = r.store.repo(run.repoId);
  const app = r.store.apps.get(run.appId);
  const suite = r.store.checkSuites.get(run.suiteId);
  const url = `${r.repoUrl(repo)}/check-runs/${run.id}`;
  const html = `${r.repoHtml(repo)}/runs/${run.id}`;
  const suiteJson: Json = suite ? { id: suite.id } : { id: run.suiteId };
  if (flavor === "webhook" && suite) {
    const full = renderSuite(r, suite, "webhook");
    for (const key of [
      "id",
      "node_id",
      "head_branch",
      "head_sha",
      "status",
      "conclusion",
      "url",
      "before",
      "after",
      "pull_requests",
      "app",
      "created_at",
      "updated_at",
    ]) {
      suiteJson[key] = full[key];
    }
  }
  return {
    id: run.id,
    node_id: nodeId("CR", run.id),
    head_sha: run.headSha,
    external_id: run.externalId ?? "",
    url,
    html_url: html,
    details_url: run.detailsUrl ?? html,
    status: run.status,
    conclusion: run.conclusion,
    started_at: iso(run.startedAt),
    completed_at: isoOrNull(run.completedAt),
    output: {
      title: run.output.title,
      summary: run.output.summary,
      text: run.output.text,
      annotations_count: 0,
      annotations_url: `${url}/annotations`,
    },
    name: run.name,
    check_suite: suiteJson,
    app: app ? r.app(app, flavor) : null,
    pull_requests: pullRefs(r, repo.id, run.headSha),
  };
}

export function renderWorkflowRun(r: Renderer, run: WorkflowRun, flavor: Flavor = "rest"): Json {
  const repo = r.store.repo(run.repoId);
  const workflow = r.store.workflows.get(run.workflowId);
  const url = `${r.repoUrl(repo)}/actions/runs/${run.id}`;
  const out: Json = {
    id: run.id,
    name: workflow?.name ?? "workflow",
    node_id: nodeId("WFR", run.id),
    head_branch: run.headBranch,
    head_sha: run.headSha,
    path: workflow?.path ?? "",
    display_title: run.displayTitle ?? workflow?.name ?? "workflow",
    run_number: run.runNumber,
    event: run.event,
    status: run.status,
    conclusion: run.conclusion,
    workflow_id: run.workflowId,
    check_suite_id: run.checkSuiteId,
    check_suite_node_id: nodeId("CS", run.checkSuiteId),
    url,
    html_url: `${r.repoHtml(repo)}/actions/runs/${run.id}`,
    pull_requests: [],
    created_at: iso(run.createdAt),
    updated_at: iso(run.updatedAt),
    actor: r.userById(run.actorId, flavor),
    triggering_actor: r.userById(run.triggeringActorId, flavor),
    run_attempt: run.runAttempt,
    referenced_workflows: [],
    run_started_at: iso(run.runStartedAt),
    jobs_url: `${url}/jobs`,
    logs_url: `${url}/logs`,
    check_suite_url: `${r.repoUrl(repo)}/check-suites/${run.checkSuiteId}`,
    artifacts_url: `${url}/artifacts`,
    cancel_url: `${url}/cancel`,
    rerun_url: `${url}/rerun`,
    previous_attempt_url: null,
    workflow_url: `${r.repoUrl(repo)}/actions/workflows/${run.workflowId}`,
    head_commit: headCommit(run.headSha, run.createdAt),
    repository: flavor === "webhook" ? r.repoLite(repo) : r.repo(repo),
    head_repository: flavor === "webhook" ? r.repoLite(repo) : r.repo(repo),
  };
  return out;
}
