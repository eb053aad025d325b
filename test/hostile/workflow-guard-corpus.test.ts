import { chmodSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { HarnessResult } from "@loopx/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runAction } from "../../action/test/support/run-action.ts";
import {
  BRANCH,
  git,
  LEASE,
  startTickWorld,
  TICK_ID,
  type TickWorld,
  tempDir,
} from "../../action/test/support/tick-world.ts";

/**
 * A hostile agent job hands the report job a bundle crafted to smuggle a `.github/` change
 * past the guard. The report job rebuilds ONE commit from the bundle's final tree and guards
 * that commit's `git diff -z --no-renames`: every case below is refused (or, for a change the
 * agent reverted itself, pushed without it), and nothing under `.github/` reaches GitHub.
 */
let w: TickWorld;
let main = "";
beforeAll(async () => {
  w = await startTickWorld();
  main = w.sandbox.push("acme/widgets", "main", {
    ".github/CODEOWNERS": "* @acme/core\n",
    ".github/scripts/check.sh": "echo ok\n",
    "src/app.js": "console.log(1);\n",
  });
});
afterAll(() => w.stop());

const remote = () => w.sandbox.gitDir("acme/widgets");

/** A checkout on the todo branch; `craft` shapes its history; the report job gets its bundle. */
async function forge(
  craft: (dir: string) => void,
  grant: {
    allowWorkflowPaths?: boolean;
    protectedPaths?: { paths: string[]; scopes: string[] }[];
  } = {},
) {
  git(remote(), "update-ref", "-d", `refs/heads/${BRANCH}`);
  const dir = await w.checkout();
  git(dir, "checkout", "--quiet", "-b", BRANCH);
  craft(dir);
  const head = git(dir, "rev-parse", "HEAD").trim();
  const tick = tempDir("loopx-forged-");
  git(dir, "bundle", "create", "--quiet", join(tick, "branch.bundle"), `refs/heads/${BRANCH}`);
  const result: HarnessResult = {
    todo: "T3",
    outcome: "progress",
    failure: null,
    validation: { command: "true", exitCode: 0, passed: true, summary: "" },
    commits: [{ sha: head, message: "work" }],
    evidence: [],
    handoff: { done: "did work", next: "more", questions: [] },
    continuation: null,
    proposedTodos: [],
    gateRequests: [],
    cost: { usd: 0, tokens: 0, runnerMinutes: 0 },
    metering: "proxy",
    withheld: [],
    sessionId: null,
  };
  writeFileSync(join(tick, "result.json"), JSON.stringify(result));
  writeFileSync(
    join(tick, "lease.json"),
    JSON.stringify({
      goal: 12,
      tickId: TICK_ID,
      leaseToken: LEASE,
      todo: "T3",
      branch: BRANCH,
      harness: "shell",
    }),
  );
  const token = await w.installationToken({ contents: "write", pull_requests: "write" });
  w.api.result = {
    accepted: true,
    push: {
      token,
      expiresAt: "2030-01-01T00:00:00.000Z",
      branch: BRANCH,
      allowWorkflowPaths: grant.allowWorkflowPaths ?? false,
      protectedPaths: grant.protectedPaths ?? [],
    },
    next: { route: "run", reason: "continue", nextWakeAt: null },
  };
  const before = w.api.calls.length;
  const run = await runAction(
    { phase: "report", "api-url": w.api.url, "tick-dir": tick, "agent-result": "success" },
    { ...w.githubEnv, ...w.idTokenEnv() },
  );
  const told = w.api.calls.slice(before).find((c) => c.path.endsWith("/pushed"))?.body as
    | { refused?: { paths: string[]; reason: string } }
    | undefined;
  const pushed = (() => {
    try {
      return git(remote(), "rev-parse", "--verify", "--quiet", `refs/heads/${BRANCH}`).trim();
    } catch {
      return null;
    }
  })();
  return { run, refused: told?.refused ?? null, pushed };
}

const commitAll = (dir: string, message: string) => {
  git(dir, "add", "--all");
  git(dir, "commit", "--quiet", "--allow-empty", "-m", message);
};
const write = (dir: string, path: string, text: string) => {
  mkdirSync(dirname(join(dir, path)), { recursive: true });
  writeFileSync(join(dir, path), text);
};

describe("hostile: a forged bundle never carries .github/ past the guard", () => {
  it("a workflow hidden in a merge commit (in neither parent)", async () => {
    const { refused, pushed } = await forge((dir) => {
      git(dir, "checkout", "--quiet", "-b", "side");
      write(dir, "b.txt", "b\n");
      commitAll(dir, "side");
      git(dir, "checkout", "--quiet", BRANCH);
      write(dir, "a.txt", "a\n");
      commitAll(dir, "a");
      git(dir, "merge", "--quiet", "--no-commit", "side");
      write(dir, ".github/workflows/x.yml", "on: push\n");
      git(dir, "add", "--all");
      git(dir, "commit", "--quiet", "--no-edit");
    });
    expect(pushed).toBeNull();
    expect(refused?.paths).toEqual([".github/workflows/x.yml"]);
  });

  it("names git would print quoted: non-ASCII, a quote, a newline, a tab", async () => {
    const names = [
      ".github/wörkflows.yml",
      '.github/a"b.yml',
      ".github/new\nline.yml",
      ".github/tab\t.yml",
    ];
    const { refused, pushed } = await forge((dir) => {
      for (const n of names) write(dir, n, "on: push\n");
      commitAll(dir, "names");
    });
    expect(pushed).toBeNull();
    expect(refused?.paths.sort()).toEqual([...names].sort());
  });

  it("deleting .github/CODEOWNERS, and renaming it out of .github/", async () => {
    const deleted = await forge((dir) => {
      rmSync(join(dir, ".github/CODEOWNERS"));
      commitAll(dir, "drop owners");
    });
    expect(deleted.pushed).toBeNull();
    expect(deleted.refused?.paths).toEqual([".github/CODEOWNERS"]);
    const renamed = await forge((dir) => {
      git(dir, "mv", ".github/CODEOWNERS", "OWNERS");
      commitAll(dir, "move owners");
    });
    expect(renamed.pushed).toBeNull();
    expect(renamed.refused?.paths).toEqual([".github/CODEOWNERS"]);
  });

  it("a mode change, a symlink and a gitlink under .github/", async () => {
    const mode = await forge((dir) => {
      chmodSync(join(dir, ".github/scripts/check.sh"), 0o755);
      commitAll(dir, "mode");
    });
    expect(mode.refused?.paths).toEqual([".github/scripts/check.sh"]);
    const link = await forge((dir) => {
      mkdirSync(join(dir, ".github/actions"), { recursive: true });
      symlinkSync("../../src", join(dir, ".github/actions/x"));
      commitAll(dir, "link");
    });
    expect(link.refused?.paths).toEqual([".github/actions/x"]);
    const gitlink = await forge((dir) => {
      git(dir, "update-index", "--add", "--cacheinfo", `160000,${main},.github/actions/x`);
      git(dir, "commit", "--quiet", "-m", "gitlink");
    });
    expect(gitlink.refused?.paths).toEqual([".github/actions/x"]);
    for (const r of [mode, link, gitlink]) expect(r.pushed).toBeNull();
  });

  it("a change added then reverted inside the bundle is not pushed, and neither is its commit", async () => {
    const { run, refused, pushed } = await forge((dir) => {
      write(dir, ".github/workflows/x.yml", "on: push\n");
      commitAll(dir, "add a workflow");
      rmSync(join(dir, ".github/workflows/x.yml"));
      write(dir, "src/app.js", "console.log(2);\n");
      commitAll(dir, "[skip ci] take it back");
    });
    expect(refused).toBeNull();
    expect(run.errors).toEqual([]);
    // One commit of LoopX's on main: the workflow never existed in what reached GitHub.
    expect(git(remote(), "rev-list", `${main}..${pushed}`).trim().split("\n")).toHaveLength(1);
    expect(git(remote(), "log", "--format=", "--name-only", `${main}..${pushed}`).trim()).toBe(
      "src/app.js",
    );
    expect(git(remote(), "log", "-1", "--format=%B", pushed ?? "")).not.toMatch(/skip ci/i);
  });

  it("path rules of .github/loopx.yml apply to every file", async () => {
    const { refused, pushed } = await forge(
      (dir) => {
        write(dir, "db/migrations/001.sql", "drop table users;\n");
        write(dir, "src/app.js", "console.log(3);\n");
        commitAll(dir, "migrate");
      },
      { protectedPaths: [{ paths: ["db/migrations/**"], scopes: ["migrate"] }] },
    );
    expect(pushed).toBeNull();
    expect(refused?.paths).toEqual(["db/migrations/001.sql"]);
    expect(refused?.reason).toContain("migrate");
  });
});
