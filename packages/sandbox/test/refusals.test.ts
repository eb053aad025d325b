/**
 * What GitHub refuses, and the runs it does not start:
 * - Permissions required for GitHub Apps ("Repository permissions for Workflows"): a GitHub App
 *   token without `workflows` cannot create or update files under `.github/workflows/`;
 * - Skipping workflow runs: `[skip ci]` and its variants in the head commit;
 * - Approving workflow runs from public forks: first-time contributors' fork PRs wait as
 *   `action_required` until someone with write access approves them;
 * - REST API endpoints for workflows, "Create a workflow dispatch event": 204, or 200 with the
 *   run's id when `return_run_details` is true; 422 for an input the workflow does not declare
 *   or a required one missing; Workflow syntax → run-name names the run (`display_title`).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSandbox, type Sandbox } from "../src/index.ts";
import { auth, clone, commitFile, git, gitTry } from "./git-support.ts";

const ON_PUSH =
  "on: push\njobs:\n  ci:\n    runs-on: ubuntu-latest\n    steps:\n      - run: true\n";
const ON_PR =
  "on: pull_request\njobs:\n  ci:\n    runs-on: ubuntu-latest\n    steps:\n      - run: true\n";

let sandbox: Sandbox;

async function installationToken(permissions: Record<string, "read" | "write">): Promise<string> {
  const { app } = sandbox.createApp({
    slug: `app-${Object.keys(permissions).join("-")}`,
    permissions,
  });
  const installation = sandbox.install(app.id, "acme", ["acme/widgets"]);
  return sandbox.installationToken(installation.id);
}

const runsOf = (event: string) =>
  [...sandbox.store.workflowRuns.values()].filter((r) => r.event === event);

describe("refusals", () => {
  beforeAll(async () => {
    sandbox = await createSandbox({ secondaryLimits: false });
    sandbox.createRepo("acme/widgets", {
      private: false,
      files: { ".github/workflows/push.yml": ON_PUSH, ".github/workflows/pr.yml": ON_PR },
      collaborators: { alice: "write" },
    });
  });
  afterAll(() => sandbox.stop());

  it("refuses a workflow-file push from a GitHub App token without the workflows permission", async () => {
    const without = await installationToken({ contents: "write", metadata: "read" });
    const dir = await clone(sandbox.cloneUrl("acme/widgets"), without);
    await commitFile(dir, ".github/workflows/evil.yml", "on: push\n");
    const before = sandbox.store.repoByName("acme", "widgets").branches.get("main");
    const refused = await gitTry(dir, ...auth(without), "push", "origin", "HEAD:main");
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toContain(
      "refusing to allow a GitHub App to create or update workflow `.github/workflows/evil.yml` without `workflows` permission",
    );
    expect(sandbox.store.repoByName("acme", "widgets").branches.get("main")).toBe(before);
    // Other files push fine with the same token; with `workflows: write` the workflow does too.
    await commitFile(dir, "docs/a.md", "a\n");
    await git(dir, "reset", "--quiet", "HEAD~2");
    await commitFile(dir, "docs/a.md", "a\n");
    await git(dir, ...auth(without), "push", "--quiet", "origin", "HEAD:main");
    const withIt = await installationToken({
      contents: "write",
      workflows: "write",
      metadata: "read",
    });
    await commitFile(dir, ".github/workflows/evil.yml", "on: push\n");
    await git(dir, ...auth(withIt), "push", "--quiet", "origin", "HEAD:main");
    await sandbox.idle();
  });

  it("starts no push or pull_request runs for a head commit saying [skip ci]", async () => {
    const before = runsOf("push").length;
    sandbox.push("acme/widgets", "main", { "a.txt": "1\n" }, "acme", "docs: typo [skip ci]");
    sandbox.push("acme/widgets", "main", { "b.txt": "1\n" }, "acme", "docs\n\n\nskip-checks: true");
    await sandbox.idle();
    expect(runsOf("push")).toHaveLength(before);
    sandbox.push("acme/widgets", "main", { "c.txt": "1\n" }, "acme", "feat: runs");
    await sandbox.idle();
    expect(runsOf("push")).toHaveLength(before + 1);
  });

  it("holds a first-time contributor's fork PR runs as action_required until approved", async () => {
    sandbox.createUser("bob");
    const bob = sandbox.createUserToken("bob");
    const call = (path: string, token: string, body?: unknown) =>
      fetch(`${sandbox.url}${path}`, {
        method: "POST",
        headers: { authorization: `token ${token}` },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    await call("/repos/acme/widgets/forks", bob);
    sandbox.push("bob/widgets", "fix", { "fix.txt": "1\n" }, "bob", "fix");
    await call("/repos/acme/widgets/pulls", bob, { title: "Fix", head: "bob:fix", base: "main" });
    await sandbox.idle();
    const [waiting] = runsOf("pull_request");
    expect(waiting).toMatchObject({ status: "completed", conclusion: "action_required" });
    if (!waiting) throw new Error("no pull_request run");
    // bob cannot approve his own run; alice (write) can, and it runs.
    expect((await call(`/repos/acme/widgets/actions/runs/${waiting.id}/approve`, bob)).status).toBe(
      403,
    );
    const alice = sandbox.createUserToken("alice");
    expect(
      (await call(`/repos/acme/widgets/actions/runs/${waiting.id}/approve`, alice)).status,
    ).toBe(201);
    expect((await sandbox.runner.wait(waiting.id)).conclusion).toBe("success");
    // A writer's own PR runs at once.
    sandbox.push("acme/widgets", "feature", { "f.txt": "1\n" }, "alice", "feature");
    await call("/repos/acme/widgets/pulls", alice, {
      title: "Feature",
      head: "feature",
      base: "main",
    });
    await sandbox.idle();
    expect(runsOf("pull_request").map((r) => r.conclusion)).toEqual(["success", "success"]);
  });

  it("answers a dispatch 204, or 200 with the run's id when return_run_details is set", async () => {
    sandbox.push("acme/widgets", "main", {
      ".github/workflows/go.yml":
        "on: workflow_dispatch\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: true\n",
    });
    const token = sandbox.createUserToken("acme");
    const dispatch = (body: unknown) =>
      fetch(`${sandbox.url}/repos/acme/widgets/actions/workflows/go.yml/dispatches`, {
        method: "POST",
        headers: { authorization: `token ${token}` },
        body: JSON.stringify(body),
      });
    expect((await dispatch({ ref: "main" })).status).toBe(204);
    const detailed = await dispatch({ ref: "main", return_run_details: true });
    expect(detailed.status).toBe(200);
    const { workflow_run_id: id } = (await detailed.json()) as { workflow_run_id: number };
    expect(sandbox.store.workflowRuns.get(id)?.event).toBe("workflow_dispatch");
    // A GitHub Enterprise Server without return_run_details answers 204 all the same.
    sandbox.faults.dispatchRunDetails = false;
    expect((await dispatch({ ref: "main", return_run_details: true })).status).toBe(204);
    sandbox.faults.dispatchRunDetails = true;
    await sandbox.idle();
  });

  it("refuses a dispatch with an input the file does not declare, or without a required one; names the run by its run-name", async () => {
    sandbox.push("acme/widgets", "main", {
      ".github/workflows/named.yml": [
        // biome-ignore lint/suspicious/noTemplateCurlyInString: a GitHub Actions expression, not a JS template
        "run-name: \"Tick #${{ inputs.goal }}${{ inputs.slot && format(' slot {0}', inputs.slot) || '' }} by ${{ github.actor }}\"",
        "on:",
        "  workflow_dispatch:",
        "    inputs:",
        "      goal: { required: true }",
        '      slot: { required: false, default: "" }',
        "jobs:",
        "  a:",
        "    runs-on: ubuntu-latest",
        "    steps:",
        "      - run: true",
        "",
      ].join("\n"),
    });
    const token = sandbox.createUserToken("acme");
    const dispatch = (body: unknown) =>
      fetch(`${sandbox.url}/repos/acme/widgets/actions/workflows/named.yml/dispatches`, {
        method: "POST",
        headers: { authorization: `token ${token}` },
        body: JSON.stringify(body),
      });
    const before = sandbox.store.workflowRuns.size;
    const unexpected = await dispatch({ ref: "main", inputs: { goal: "3", nonce: "n1", x: "1" } });
    expect(unexpected.status).toBe(422);
    expect(((await unexpected.json()) as { message: string }).message).toBe(
      'Unexpected inputs provided: ["nonce","x"]',
    );
    const missing = await dispatch({ ref: "main", inputs: { slot: "2" } });
    expect(missing.status).toBe(422);
    expect(((await missing.json()) as { message: string }).message).toBe(
      "Required input 'goal' not provided",
    );
    expect(sandbox.store.workflowRuns.size).toBe(before);

    const title = async (inputs: Record<string, string>) => {
      const res = await dispatch({ ref: "main", inputs, return_run_details: true });
      const { workflow_run_id: id } = (await res.json()) as { workflow_run_id: number };
      const run = await fetch(`${sandbox.url}/repos/acme/widgets/actions/runs/${id}`, {
        headers: { authorization: `token ${token}` },
      });
      return ((await run.json()) as { display_title: string }).display_title;
    };
    expect(await title({ goal: "3" })).toBe("Tick #3 by acme");
    expect(await title({ goal: "3", slot: "2" })).toBe("Tick #3 slot 2 by acme");
    await sandbox.idle();
  });
  it("refuses to dispatch a workflow without a workflow_dispatch trigger; a branch dispatch's run carries its head_branch to workflow_run.completed", async () => {
    sandbox.push("acme/widgets", "main", {
      ".github/workflows/job.yml":
        "name: job\non:\n  workflow_dispatch: {}\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: true\n",
    });
    sandbox.push("acme/widgets", "loopx/9-T1", { "work.txt": "w\n" });
    const token = sandbox.createUserToken("acme");
    const dispatch = (file: string, body: unknown) =>
      fetch(`${sandbox.url}/repos/acme/widgets/actions/workflows/${file}/dispatches`, {
        method: "POST",
        headers: { authorization: `token ${token}` },
        body: JSON.stringify(body),
      });
    const before = sandbox.store.workflowRuns.size;
    const pushOnly = await dispatch("push.yml", { ref: "main" });
    expect(pushOnly.status).toBe(422);
    expect(((await pushOnly.json()) as { message: string }).message).toBe(
      "Workflow does not have 'workflow_dispatch' trigger",
    );
    expect(sandbox.store.workflowRuns.size).toBe(before);

    const res = await dispatch("job.yml", { ref: "loopx/9-T1", return_run_details: true });
    const { workflow_run_id: id } = (await res.json()) as { workflow_run_id: number };
    sandbox.updateRun(id, "completed", "failure");
    const sent = sandbox
      .deliveries()
      .filter((d) => d.event === "workflow_run" && d.action === "completed")
      .at(-1);
    expect(sent?.payload).toMatchObject({
      workflow_run: {
        id,
        event: "workflow_dispatch",
        head_branch: "loopx/9-T1",
        path: ".github/workflows/job.yml",
        conclusion: "failure",
      },
    });
    await sandbox.idle();
  });
});
