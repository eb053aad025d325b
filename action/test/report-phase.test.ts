import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { type HarnessResult, ResultRequest } from "@loopx/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runAction } from "./support/run-action.ts";
import {
  BRANCH,
  git,
  LEASE,
  startTickWorld,
  TICK_ID,
  type TickWorld,
  tempDir,
} from "./support/tick-world.ts";

let w: TickWorld;
beforeAll(async () => {
  w = await startTickWorld();
});
afterAll(() => w.stop());

const NEXT = {
  route: "run" as const,
  reason: "T3 continues",
  nextWakeAt: "2030-01-01T10:00:00.000Z",
};

/** What the ask and agent jobs leave for the report job: lease, result and bundle. */
async function tickFiles(files: Record<string, string>, options: { strayBranch?: boolean } = {}) {
  const workdir = await w.checkout();
  git(workdir, "checkout", "--quiet", "-b", BRANCH);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(workdir, path)), { recursive: true });
    writeFileSync(join(workdir, path), text);
  }
  git(workdir, "add", "--all");
  git(workdir, "commit", "--quiet", "-m", "T3: widgets");
  const head = git(workdir, "rev-parse", "HEAD").trim();
  const refs = [`refs/heads/${BRANCH}`];
  if (options.strayBranch) {
    // A hostile agent adds other refs to its bundle; only the tick's branch may be pushed.
    git(workdir, "branch", "-f", "main", "HEAD");
    git(workdir, "branch", "evil", "HEAD");
    refs.push("refs/heads/main", "refs/heads/evil");
  }
  const dir = tempDir("loopx-tick-");
  git(workdir, "bundle", "create", "--quiet", join(dir, "branch.bundle"), ...refs);
  const result: HarnessResult = {
    todo: "T3",
    outcome: "progress",
    failure: null,
    validation: { command: "npm test", exitCode: 0, passed: true, summary: "ok" },
    commits: [{ sha: head, message: "T3: widgets" }],
    evidence: [{ kind: "test", summary: "validation passed: npm test", url: null, sha: null }],
    handoff: { done: "Listed the widgets", next: "Sort them", questions: [] },
    continuation: null,
    proposedTodos: [],
    gateRequests: [],
    cost: { usd: 0.42, tokens: 1234, runnerMinutes: 3 },
    metering: "proxy",
    withheld: [],
    sessionId: null,
  };
  writeFileSync(join(dir, "result.json"), JSON.stringify(result));
  writeFileSync(
    join(dir, "lease.json"),
    JSON.stringify({
      goal: 12,
      tickId: TICK_ID,
      leaseToken: LEASE,
      todo: "T3",
      branch: BRANCH,
      harness: "shell",
    }),
  );
  return { dir, head, workdir };
}

const report = (tickDir: string, inputs: Record<string, string> = {}) =>
  runAction(
    {
      phase: "report",
      "api-url": w.api.url,
      "tick-dir": tickDir,
      "agent-result": "success",
      ...inputs,
    },
    { ...w.githubEnv, ...w.idTokenEnv() },
  );

const remoteHead = (branch: string) =>
  w.sandbox.store.repos.get(w.sandbox.store.repoByName("acme", "widgets").id)?.branches.get(branch);

async function grant(allowWorkflowPaths = false) {
  const token = await w.installationToken({ contents: "write", pull_requests: "write" });
  w.api.result = {
    accepted: true,
    push: { token, expiresAt: "2030-01-01T00:00:00.000Z", branch: BRANCH, allowWorkflowPaths },
    next: NEXT,
  };
  return token;
}

const treeOf = (dir: string, rev: string) => git(dir, "rev-parse", `${rev}^{tree}`).trim();
const remoteGit = () => w.sandbox.gitDir("acme/widgets");

describe("report", () => {
  it("sends the result, pushes ONLY the tick's branch with the granted token, reports the head, revokes the token", async () => {
    const mainBefore = remoteHead("main");
    const { dir, head, workdir } = await tickFiles(
      { "widgets.txt": "gear\n" },
      { strayBranch: true },
    );
    const token = await grant();
    const before = w.api.calls.length;
    const run = await report(dir);
    expect(run.errors).toEqual([]);
    expect(run.code).toBe(0);
    // One commit of LoopX's with the bundle's tree, on main: not the agent's commit itself.
    const pushed = remoteHead(BRANCH) ?? "";
    expect(pushed).not.toBe(head);
    expect(treeOf(remoteGit(), pushed)).toBe(treeOf(workdir, head));
    expect(git(remoteGit(), "rev-parse", `${pushed}~1`).trim()).toBe(mainBefore);
    expect(git(remoteGit(), "log", "-1", "--format=%an%n%B", pushed)).toBe(
      `loopx[bot]\nloopx: T3 work in progress\n\nLoopX-Tick: ${TICK_ID}\n\n`,
    );
    expect(remoteHead("main")).toBe(mainBefore);
    expect(remoteHead("evil")).toBeUndefined();
    const calls = w.api.calls.slice(before);
    expect(calls.map((c) => c.path)).toEqual([
      `/api/v1/ticks/${TICK_ID}/result`,
      `/api/v1/ticks/${TICK_ID}/pushed`,
    ]);
    expect(calls[0]?.body).toMatchObject({
      leaseToken: LEASE,
      result: { todo: "T3", outcome: "progress" },
    });
    // The files the push changed, from the report job's own diff of the pushed commit.
    expect(calls[1]?.body).toEqual({
      leaseToken: LEASE,
      branch: BRANCH,
      headSha: pushed,
      paths: git(remoteGit(), "diff", "--name-only", mainBefore ?? "", pushed)
        .trim()
        .split("\n"),
    });
    expect(new Set(calls.map((c) => c.claims.jti)).size).toBe(2);
    const revoke = w.sandbox
      .requests()
      .filter((r) => r.method === "DELETE" && r.path.endsWith("/installation/token"));
    expect(revoke.length).toBeGreaterThan(0);
    expect(run.stdout).toContain(`::add-mask::${token}`);
    expect(run.summary).not.toContain(token);
    expect(run.summary).toContain("### LoopX T3: progress");
    expect(run.summary).toContain("Listed the widgets");
    expect(run.summary).toContain("$0.4200, 1234 tokens");
    expect(run.summary).toContain(`${w.sandbox.url}/acme/widgets/issues/12`);
    expect(run.outputs).toMatchObject({ pushed: "true", "head-sha": pushed, "next-route": "run" });
  });

  it("refuses to push workflow files without a gate, and hands them to a person as a patch", async () => {
    const { dir } = await tickFiles({
      ".github/workflows/pwn.yml": "on: push\n",
      "b.txt": "b\n",
    });
    const branchBefore = remoteHead(BRANCH);
    await grant(false);
    const before = w.api.calls.length;
    const run = await report(dir);
    expect(run.code).not.toBe(0);
    expect(run.errors.join()).toContain(
      "Did not push loopx/12-T3: its commits change .github/ and no gate approved write:.github (.github/workflows/pwn.yml). Only a person can push workflow files: the patch is on the goal issue",
    );
    expect(remoteHead(BRANCH)).toBe(branchBefore);
    const calls = w.api.calls.slice(before);
    expect(calls.map((c) => c.path)).toEqual([
      `/api/v1/ticks/${TICK_ID}/result`,
      `/api/v1/ticks/${TICK_ID}/pushed`,
    ]);
    // The App is told the push was refused (and which head), never that it landed.
    expect(calls[1]?.body).toEqual({
      leaseToken: LEASE,
      branch: BRANCH,
      refused: {
        reason: "its commits change .github/ and no gate approved write:.github",
        headSha: expect.stringMatching(/^[0-9a-f]{40}$/),
        paths: [".github/workflows/pwn.yml"],
        // No gate makes workflow files pushable by the App: only a person can push them.
        patch: expect.stringContaining("+++ b/.github/workflows/pwn.yml"),
      },
    });
    expect(run.summary).toContain("Push refused");
  });

  it("refuses other .github/ changes without a gate and asks for the gate, with no patch", async () => {
    const { dir } = await tickFiles({ ".github/CODEOWNERS": "* @acme/core\n" });
    const branchBefore = remoteHead(BRANCH);
    await grant(false);
    const before = w.api.calls.length;
    const run = await report(dir);
    expect(run.code).not.toBe(0);
    expect(run.errors.join()).toContain(
      "Refused to push loopx/12-T3: its commits change .github/ and no gate approved write:.github (.github/CODEOWNERS). Changes under .github/ need a gate approving `write:.github`",
    );
    expect(remoteHead(BRANCH)).toBe(branchBefore);
    const told = w.api.calls.slice(before).find((c) => c.path.endsWith("/pushed"));
    expect(told?.body).toEqual({
      leaseToken: LEASE,
      branch: BRANCH,
      refused: {
        reason: "its commits change .github/ and no gate approved write:.github",
        headSha: expect.stringMatching(/^[0-9a-f]{40}$/),
        paths: [".github/CODEOWNERS"],
      },
    });
  });

  it("holds a commit touching another running todo's declared paths, naming it; pushes one that does not", async () => {
    const heldPaths = [{ todo: "T2", paths: ["docs/**", "README.md"] }];
    const grantHeld = async () => {
      const token = await w.installationToken({ contents: "write", pull_requests: "write" });
      w.api.result = {
        accepted: true,
        push: {
          token,
          expiresAt: "2030-01-01T00:00:00.000Z",
          branch: BRANCH,
          allowWorkflowPaths: false,
          heldPaths,
        },
        next: NEXT,
      };
    };
    const { dir } = await tickFiles({ "docs/guide.md": "mine\n", "src/a.ts": "a\n" });
    const branchBefore = remoteHead(BRANCH);
    await grantHeld();
    const before = w.api.calls.length;
    const run = await report(dir);
    expect(run.code).not.toBe(0);
    const reason =
      "held: its commits change paths that T2 (docs/**, README.md) declared, and that todo's tick is still running";
    expect(run.errors.join()).toContain(`Did not push loopx/12-T3: ${reason} (docs/guide.md)`);
    expect(remoteHead(BRANCH)).toBe(branchBefore);
    expect(w.api.calls.slice(before)[1]?.body).toEqual({
      leaseToken: LEASE,
      branch: BRANCH,
      refused: {
        reason,
        headSha: expect.stringMatching(/^[0-9a-f]{40}$/),
        paths: ["docs/guide.md"],
      },
    });

    const clear = await tickFiles({ "src/b.ts": "b\n" });
    await grantHeld();
    const ok = await report(clear.dir);
    expect(ok.errors).toEqual([]);
    expect(treeOf(remoteGit(), remoteHead(BRANCH) ?? "")).toBe(treeOf(clear.workdir, clear.head));
  });

  it("pushes .github/ changes when a gate allowed them, but hands workflow files over as a patch", async () => {
    git(remoteGit(), "update-ref", "-d", `refs/heads/${BRANCH}`);
    const owners = await tickFiles({ ".github/CODEOWNERS": "* @acme/core\n" });
    await grant(true);
    const run = await report(owners.dir);
    expect(run.errors).toEqual([]);
    expect(treeOf(remoteGit(), remoteHead(BRANCH) ?? "")).toBe(treeOf(owners.workdir, owners.head));

    git(remoteGit(), "update-ref", "-d", `refs/heads/${BRANCH}`);
    const workflow = await tickFiles({ ".github/workflows/ci.yml": "on: push\n" });
    await grant(true);
    const before = w.api.calls.length;
    const refused = await report(workflow.dir);
    expect(refused.code).not.toBe(0);
    expect(refused.errors.join()).toContain("the patch is on the goal issue");
    expect(() =>
      git(remoteGit(), "rev-parse", "--verify", "--quiet", `refs/heads/${BRANCH}`),
    ).toThrow();
    const told = w.api.calls.slice(before)[1]?.body as {
      refused: { patch: string; paths: string[] };
    };
    expect(told.refused.paths).toEqual([".github/workflows/ci.yml"]);
    expect(told.refused.patch).toContain("+++ b/.github/workflows/ci.yml");
    expect(told.refused.patch).toContain("+on: push");
  });

  it("when the App keeps failing, retries, then fails the step and keeps the result in the summary", async () => {
    const { dir } = await tickFiles({ "c.txt": "c\n" });
    w.api.result = { status: 503, body: { error: "unavailable", message: "database down" } };
    const run = await report(dir);
    expect(run.code).not.toBe(0);
    expect(run.errors.join()).toMatch(
      /could not be sent to the LoopX App.*after 4 attempts.*database down/s,
    );
    expect(run.summary).toContain("NOT fully reported");
    expect(run.summary).toContain("Listed the widgets");
    expect(run.summary).toContain("Upload failed");
  });

  it("an agent job that died reports a host failure, so the cost is still charged", async () => {
    const dir = tempDir("loopx-tick-");
    writeFileSync(
      join(dir, "lease.json"),
      JSON.stringify({
        goal: 12,
        tickId: TICK_ID,
        leaseToken: LEASE,
        todo: "T3",
        branch: BRANCH,
        harness: "shell",
      }),
    );
    w.api.result = { accepted: true, push: null, next: { ...NEXT, route: "wait" } };
    const before = w.api.calls.length;
    const run = await report(dir, { "agent-result": "cancelled" });
    expect(run.errors).toEqual([]);
    const sent = ResultRequest.parse(w.api.calls[before]?.body);
    expect(sent.result).toMatchObject({ todo: "T3", outcome: "failed", failure: "host_failure" });
    expect(sent.result.handoff.done).toContain('ended with "cancelled"');
    expect(run.outputs.pushed).toBe("false");
  });

  it("without the lease artifact, says which artifact to download", async () => {
    const run = await report(tempDir("loopx-empty-"));
    expect(run.code).not.toBe(0);
    expect(run.errors.join()).toContain("`loopx-lease` artifact");
  });
});
