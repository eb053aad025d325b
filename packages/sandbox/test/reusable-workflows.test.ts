/**
 * Reusable workflows and the ID tokens of their jobs, as GitHub documents them:
 * - Reuse workflows ("Calling a reusable workflow", "Passing inputs and secrets to a reusable
 *   workflow", "Using outputs from a reusable workflow", "Nesting reusable workflows");
 * - Reusable workflows reference ("Access to reusable workflows", "Limitations");
 * - Using OpenID Connect with reusable workflows ("How the token works with reusable workflows").
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { decodeJwt } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSandbox, giveToRunner, type Sandbox } from "../src/index.ts";
import { tempDir } from "./git-support.ts";
import { dispatchRun } from "./helpers.ts";

// Records what a called job sees: its ID token's claims, its secrets, what its token may do.
const RECORD = `import { writeFileSync } from "node:fs";
const env = process.env;
const res = await fetch(env.ACTIONS_ID_TOKEN_REQUEST_URL + "&audience=test", { headers: { authorization: "bearer " + env.ACTIONS_ID_TOKEN_REQUEST_TOKEN } });
const h = { authorization: "token " + env.TOKEN, "content-type": "application/json" };
const api = env.GITHUB_API_URL + "/repos/" + env.GITHUB_REPOSITORY;
const issue = await fetch(api + "/issues", { method: "POST", headers: h, body: JSON.stringify({ title: "x" }) });
const out = { idToken: (await res.json()).value, secretA: env.SECRET_A, workflowRef: env.CTX_WORKFLOW_REF, job: env.GITHUB_JOB, issueStatus: issue.status };
writeFileSync(env.OUT + "/" + env.WHO + ".json", JSON.stringify(out));
`;

const called = (marker: string) => `name: Speak
on:
  workflow_call:
    inputs:
      who: { type: string, required: true }
      loud: { type: boolean, default: false }
    secrets:
      SECRET_A: { required: false }
    outputs:
      said: { value: "\${{ jobs.speak.outputs.said }}" }
jobs:
  speak:
    runs-on: ubuntu-latest
    permissions: { id-token: write, contents: write, issues: write }
    outputs:
      said: \${{ steps.s.outputs.said }}
    steps:
      - id: s
        env:
          OUT: \${{ vars.OUT }}
          WHO: \${{ inputs.who }}
          TOKEN: \${{ github.token }}
          SECRET_A: \${{ secrets.SECRET_A }}
          CTX_WORKFLOW_REF: \${{ github.workflow_ref }}
        run: |
          echo "said=\${{ inputs.who }}-\${{ inputs.loud }}-${marker}" >> "$GITHUB_OUTPUT"
          node "$OUT/record.mjs"
`;

const ACTION_YML = `name: Hello
inputs:
  greeting: { default: hi }
runs:
  using: node24
  main: index.mjs
`;
const ACTION_JS = `import { appendFileSync } from "node:fs";
appendFileSync(process.env.GITHUB_OUTPUT, "greeting=" + process.env.INPUT_GREETING + "\\n");
`;

let sandbox: Sandbox;
let out: string;
let sha: { tag: string; main: string; fork: string; caller: string };

const caller = (forkSha: string, tagSha: string) => `name: Caller
on: workflow_dispatch
jobs:
  at-tag:
    uses: shared/flows/.github/workflows/called.yml@v1
    permissions: { id-token: write, contents: read }
    with: { who: tag, loud: true }
    secrets: { SECRET_A: "\${{ secrets.SECRET_A }}" }
  at-branch:
    uses: shared/flows/.github/workflows/called.yml@main
    permissions: { id-token: write }
    with: { who: branch }
    secrets: inherit
  at-sha:
    uses: shared/flows/.github/workflows/called.yml@${tagSha}
    permissions: { id-token: write }
    with: { who: sha }
  from-fork:
    uses: shared/flows/.github/workflows/called.yml@${forkSha}
    permissions: { id-token: write }
    with: { who: fork }
  same-owner:
    uses: acme/flows/.github/workflows/called.yml@main
    permissions: { id-token: write }
    with: { who: mine }
    secrets: inherit
  after:
    needs: [at-tag]
    runs-on: ubuntu-latest
    outputs:
      greeting: \${{ steps.hello.outputs.greeting }}
    steps:
      - run: echo "\${{ needs.at-tag.outputs.said }}" > "\${{ vars.OUT }}/after.txt"
      - id: hello
        uses: shared/hello@v1
`;

const dispatch = (workflow: string) =>
  dispatchRun(sandbox, workflow, sandbox.createUserToken("acme"));

const seen = (who: string) => JSON.parse(readFileSync(join(out, `${who}.json`), "utf8"));

describe("reusable workflows", () => {
  beforeAll(async () => {
    sandbox = await createSandbox({ secondaryLimits: false });
    out = tempDir("reusable-");
    writeFileSync(join(out, "record.mjs"), RECORD);
    giveToRunner(out);
    sandbox.createRepo("shared/flows", {
      private: false,
      files: { ".github/workflows/called.yml": called("v1") },
    });
    const tag = sandbox.tag("shared/flows", "v1");
    const main = sandbox.push("shared/flows", "main", {
      ".github/workflows/called.yml": called("main"),
    });
    // Anyone may fork a public repository and push to the fork.
    sandbox.createUser("evil");
    await fetch(`${sandbox.url}/repos/shared/flows/forks`, {
      method: "POST",
      headers: { authorization: `token ${sandbox.createUserToken("evil")}` },
    });
    const fork = sandbox.push("evil/flows", "main", {
      ".github/workflows/called.yml": called("fork"),
    });
    sandbox.createRepo("acme/flows", {
      private: false,
      files: { ".github/workflows/called.yml": called("acme") },
    });
    sandbox.createRepo("shared/hello", {
      private: false,
      files: { "action.yml": ACTION_YML, "index.mjs": ACTION_JS },
    });
    sandbox.tag("shared/hello", "v1");
    sandbox.createRepo("acme/widgets", { private: false });
    sandbox.runner.secrets = { SECRET_A: "caller-secret" };
    sandbox.runner.vars = { OUT: out };
    const callerSha = sandbox.push("acme/widgets", "main", {
      ".github/workflows/caller.yml": caller(fork, tag),
    });
    sha = { tag, main, fork, caller: callerSha };
  });
  afterAll(() => sandbox.stop());

  it("runs the called workflow's jobs in the caller's run with GitHub's OIDC claims, inputs, secrets, outputs and narrowed permissions", async () => {
    const runId = await dispatch("caller.yml");
    const run = await sandbox.runner.wait(runId);
    const jobs = sandbox.run(runId)?.jobs ?? [];
    expect(run.conclusion, jobs.map((j) => `${j.key}: ${j.conclusion}\n${j.log}`).join("\n")).toBe(
      "success",
    );
    expect(jobs.map((j) => j.key).sort()).toEqual([
      "after",
      "at-branch/speak",
      "at-sha/speak",
      "at-tag/speak",
      "from-fork/speak",
      "same-owner/speak",
    ]);
    const repo = sandbox.store.repoByName("acme", "widgets");
    const callerRef = "acme/widgets/.github/workflows/caller.yml@refs/heads/main";
    const jobRef = (ref: string) => `shared/flows/.github/workflows/called.yml@${ref}`;
    const expected = {
      tag: { ref: jobRef("refs/tags/v1"), sha: sha.tag },
      branch: { ref: jobRef("refs/heads/main"), sha: sha.main },
      sha: { ref: jobRef(sha.tag), sha: sha.tag },
      // A fork's commit, named under its parent: GitHub resolves it there too.
      fork: { ref: jobRef(sha.fork), sha: sha.fork },
      mine: {
        ref: "acme/flows/.github/workflows/called.yml@refs/heads/main",
        sha: sandbox.store.repoByName("acme", "flows").branches.get("main"),
      },
    };
    for (const [who, job] of Object.entries(expected)) {
      const s = seen(who);
      const claims = decodeJwt(s.idToken);
      expect(claims, who).toMatchObject({
        workflow_ref: callerRef,
        workflow_sha: sha.caller,
        job_workflow_ref: job.ref,
        job_workflow_sha: job.sha,
        event_name: "workflow_dispatch",
        repository: "acme/widgets",
        repository_id: String(repo.id),
        ref: "refs/heads/main",
        run_id: String(runId),
        run_attempt: "1",
        sub: `repo:acme@${repo.ownerId}/widgets@${repo.id}:ref:refs/heads/main`,
      });
      // The github context is the caller's; the called job's id is its own.
      expect(s.workflowRef).toBe(callerRef);
      expect(s.job).toBe("speak");
      // The caller job granted no issues permission: the called job's `issues: write` narrows away.
      expect(s.issueStatus, who).toBe(403);
    }
    // Secrets: mapped ones arrive; `inherit` crosses only within an owner, else passes nothing.
    expect(seen("tag").secretA).toBe("caller-secret");
    expect(seen("branch").secretA).toBe("");
    expect(seen("mine").secretA).toBe("caller-secret");
    // Outputs of the called workflow are the caller job's outputs, typed inputs included.
    expect(readFileSync(join(out, "after.txt"), "utf8").trim()).toBe("tag-true-v1");
    // An action by reference, from a repository the sandbox hosts, with action.yml's defaults.
    expect(jobs.find((j) => j.key === "after")?.outputs.greeting).toBe("hi");
  });

  it("refuses what GitHub refuses: private workflows from public callers, non-reusable files, undeclared inputs, deep nesting", async () => {
    sandbox.createRepo("acme/secret-flows", {
      files: { ".github/workflows/called.yml": called("secret") },
    });
    const files = {
      ".github/workflows/private.yml": `on: workflow_dispatch\njobs:\n  c:\n    uses: acme/secret-flows/.github/workflows/called.yml@main\n    with: { who: p }\n`,
      ".github/workflows/plain.yml": `on: workflow_dispatch\njobs:\n  c:\n    uses: acme/widgets/.github/workflows/private.yml@main\n`,
      ".github/workflows/undeclared.yml": `on: workflow_dispatch\njobs:\n  c:\n    uses: shared/flows/.github/workflows/called.yml@v1\n    with: { who: u, colour: red }\n`,
      ".github/workflows/deep.yml": `on:\n  workflow_dispatch:\n  workflow_call:\njobs:\n  down:\n    uses: ./.github/workflows/deep.yml\n`,
    };
    sandbox.push("acme/widgets", "main", files);
    const refusals: Record<string, RegExp> = {
      "private.yml":
        /public repository's workflow can call reusable workflows in public repositories only/,
      "plain.yml": /is not a reusable workflow/,
      "undeclared.yml": /Invalid input, colour is not defined in the referenced workflow/,
      "deep.yml": /nested at most 10 levels deep/,
    };
    for (const [file, message] of Object.entries(refusals)) {
      const runId = await dispatch(file);
      const run = await sandbox.runner.wait(runId);
      expect(run.conclusion, file).toBe("failure");
      const logs = (sandbox.run(runId)?.jobs ?? []).map((j) => j.log).join("\n");
      expect(logs, file).toMatch(message);
    }
    // Ten levels: the top-level workflow and nine called ones; the tenth call is refused.
    const deepest = [...sandbox.store.workflowJobs.values()].find((j) =>
      j.log.includes("nested at most"),
    );
    expect(deepest?.key.split("/")).toHaveLength(10);
  });
});
