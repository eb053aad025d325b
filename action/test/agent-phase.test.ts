import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { HarnessResult, WITHHELD } from "@loopx/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runAction } from "./support/run-action.ts";
import {
  BRANCH,
  git,
  gitAsync,
  runAnswer,
  startTickWorld,
  type TickWorld,
  tempDir,
} from "./support/tick-world.ts";

let w: TickWorld;
beforeAll(async () => {
  w = await startTickWorld();
});
afterAll(() => w.stop());

const CLAIM = {
  outcome: "progress",
  handoff: { done: "Added widgets.txt", next: "List the widgets", questions: [] },
  evidence: [{ kind: "note", summary: "wrote widgets.txt" }],
};
const writeClaim = `printf '%s' '${JSON.stringify(CLAIM)}' > "$LOOPX_RESULT"`;

/** The ask job's artifact, as the agent job downloads it (no lease token in it). */
function askArtifact(overrides: Parameters<typeof runAnswer>[0] = {}): string {
  const dir = tempDir("loopx-tick-");
  const { leaseToken: _lease, ...brief } = runAnswer(overrides);
  writeFileSync(join(dir, "ask.json"), JSON.stringify(brief));
  return dir;
}

async function agent(
  tickDir: string,
  workdir: string,
  inputs: Record<string, string>,
  env: Record<string, string> = {},
) {
  // The agent job: no ACTIONS_ID_TOKEN_* at all, a read-only token.
  const token = await w.installationToken({ contents: "read" });
  return runAction(
    { phase: "agent", "tick-dir": tickDir, workdir, token, ...inputs },
    { ...w.githubEnv, GITHUB_WORKSPACE: workdir, ...env },
  );
}

function result(tickDir: string): HarnessResult {
  return HarnessResult.parse(JSON.parse(readFileSync(join(tickDir, "result.json"), "utf8")));
}

/**
 * The branch as the report job will see it: what GitHub has, then the bundle, which holds
 * only what GitHub lacks.
 */
async function branchFromBundle(tickDir: string): Promise<string> {
  const dir = tempDir("loopx-unbundle-");
  git(dir, "init", "--quiet", "--bare");
  const token = await w.installationToken({ contents: "read" });
  await gitAsync(
    dir,
    "fetch",
    "--quiet",
    w.sandbox.cloneUrl("acme/widgets", token),
    "+refs/heads/*:refs/remotes/origin/*",
  );
  git(
    dir,
    "fetch",
    "--quiet",
    join(tickDir, "branch.bundle"),
    `refs/heads/${BRANCH}:refs/heads/${BRANCH}`,
  );
  return dir;
}

describe("agent", () => {
  it("creates the todo branch from the default branch, runs the shell slice, validates, commits and bundles", async () => {
    const workdir = await w.checkout();
    const main = git(workdir, "rev-parse", "HEAD").trim();
    const tickDir = askArtifact({ validationCommand: "test -s widgets.txt" });
    const run = await agent(tickDir, workdir, {
      "shell-command": `echo "gear" > widgets.txt && ${writeClaim}`,
    });
    expect(run.errors).toEqual([]);
    expect(run.code).toBe(0);
    const r = result(tickDir);
    expect(r).toMatchObject({
      todo: "T3",
      outcome: "progress",
      failure: null,
      metering: "no_model",
    });
    expect(r.validation).toMatchObject({ command: "test -s widgets.txt", passed: true });
    expect(r.commits).toHaveLength(1);
    expect(r.commits[0]?.sha).toBe(run.outputs["head-sha"]);
    expect(r.commits[0]?.message).toBe("loopx: T3 work in progress");
    expect(r.handoff.done).toBe("Added widgets.txt");
    const bare = await branchFromBundle(tickDir);
    expect(git(bare, "show", `${BRANCH}:widgets.txt`)).toBe("gear\n");
    // One commit of LoopX's on the default branch, whatever the agent did with history.
    expect(git(bare, "rev-parse", `${BRANCH}~1`).trim()).toBe(main);
    expect(git(bare, "log", "-1", "--format=%an%n%B", BRANCH)).toContain(
      "loopx[bot]\nloopx: T3 work in progress",
    );
    // The agent wrote the work tree's .git: nothing later may run git in it.
    expect(existsSync(join(workdir, ".git"))).toBe(false);
    expect(run.summary).toContain("**Outcome:** progress");
    expect(run.outputs).toMatchObject({
      outcome: "progress",
      "slice-outcome": "validated_progress",
    });
  });

  it("a timed-out slice still commits its work in progress and is reported as a timeout", async () => {
    const workdir = await w.checkout();
    const tickDir = askArtifact({
      limits: { wallMinutes: 0.02, idleMinutes: 1, maxTurns: 5, usd: 1 },
    });
    const run = await agent(tickDir, workdir, {
      "shell-command": "echo half > half-done.txt && sleep 30",
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("::warning::");
    const r = result(tickDir);
    expect(r).toMatchObject({ outcome: "failed", failure: "timeout" });
    expect(r.commits.at(-1)?.message).toBe("loopx: T3 work in progress");
    expect(git(await branchFromBundle(tickDir), "show", `${BRANCH}:half-done.txt`)).toBe("half\n");
  });

  it("continues the todo branch an earlier tick pushed (fetched with the read-only token)", async () => {
    const workdir = await w.checkout(); // checked out before the push: no tracking ref
    const earlier = w.sandbox.push("acme/widgets", BRANCH, { "notes.md": "tick 1\n" });
    const tickDir = askArtifact();
    const run = await agent(tickDir, workdir, {
      "shell-command": `echo more >> notes.md && ${writeClaim}`,
    });
    expect(run.errors).toEqual([]);
    const bare = await branchFromBundle(tickDir);
    expect(git(bare, "rev-parse", `${BRANCH}~1`).trim()).toBe(earlier);
    expect(git(bare, "show", `${BRANCH}:notes.md`)).toBe("tick 1\nmore\n");
    git(w.sandbox.gitDir("acme/widgets"), "update-ref", "-d", `refs/heads/${BRANCH}`);
  });

  it("hands the harness only the named secrets, and redacts them from everything it writes", async () => {
    const workdir = await w.checkout();
    const tickDir = askArtifact();
    const key = "sk-ant-test-0123456789abcdef";
    const run = await agent(
      tickDir,
      workdir,
      {
        "harness-env": "MY_SERVICE_KEY",
        "shell-command": `echo "key=$MY_SERVICE_KEY other=\${UNNAMED:-unset}"; echo "$MY_SERVICE_KEY" > leaked.txt; exit 3`,
      },
      { MY_SERVICE_KEY: key, UNNAMED: "not-forwarded" },
    );
    expect(run.code).toBe(0);
    const text = readFileSync(join(tickDir, "result.json"), "utf8");
    expect(text).not.toContain(key);
    expect(run.summary).not.toContain(key);
    expect(run.stdout).toContain(`::add-mask::${key}`);
    // The output held the key, so it is withheld whole; the ledger learns which field.
    const r = result(tickDir);
    expect(r).toMatchObject({ outcome: "failed", failure: "harness_error", metering: "unmetered" });
    expect(r.withheld).toContain("outputTail");
    expect(JSON.stringify(r.evidence)).toContain(WITHHELD);
  });

  it("without the ask artifact, says which artifact to download", async () => {
    const run = await agent(tempDir("loopx-empty-"), await w.checkout(), {
      "shell-command": "true",
    });
    expect(run.code).not.toBe(0);
    expect(run.errors.join()).toContain("download the ask job's `loopx-ask` artifact");
  });

  it("a shell harness without a command is refused before anything runs", async () => {
    const workdir = await w.checkout();
    const tickDir = askArtifact();
    const run = await agent(tickDir, workdir, {});
    expect(run.code).not.toBe(0);
    expect(run.errors.join()).toContain("set the `shell-command` input");
    expect(existsSync(join(tickDir, "result.json"))).toBe(false);
  });
});
