import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  OwnRepo,
  ownWorkspace,
  processesOf,
  runSlice,
  type SliceInput,
  shellAdapter,
} from "../src/index.ts";
import { cleanupTempDirs, GOOD_CLAIM, gitWorkdir, sliceInput, tempDir } from "./fixtures.ts";

afterAll(cleanupTempDirs);

const SECRET = `action-only-${process.pid}-secret`;
const claim = `printf '%s' '${JSON.stringify(GOOD_CLAIM)}' > "$LOOPX_RESULT"`;

/**
 * A slice in the jail, the way the action runs one: the work tree imported into a repository
 * the action owns, validated in a fresh jail. `hidden` holds a canary; the test process's
 * environment holds a secret no jailed process may read.
 */
async function jailed(command: string, over: Partial<SliceInput> = {}) {
  const work = gitWorkdir();
  const tick = tempDir("loopx-tick-");
  const hidden = tempDir("loopx-hidden-");
  writeFileSync(join(hidden, "canary"), "secret");
  const repo = await OwnRepo.create(join(tick, "own.git"));
  const base = await repo.fetch(work, "HEAD", "refs/loopx/base");
  process.env.LOOPX_TEST_ACTION_SECRET = SECRET;
  try {
    const report = await runSlice(
      shellAdapter({ command }),
      sliceInput(work, {
        jail: { hidden: [hidden, tick] },
        workspace: ownWorkspace({
          repo,
          workdir: work,
          base,
          branch: "loopx/1-T1",
          message: "loopx: T1 work in progress\n\nLoopX-Tick: test",
          scratchRoot: tick,
          hidden: [hidden],
        }),
        ...over,
      }),
    );
    return { report, work, repo, hidden };
  } finally {
    delete process.env.LOOPX_TEST_ACTION_SECRET;
  }
}

describe("a slice in the jail", () => {
  it("runs as its own uid, sees only its own processes and environment, no sudo, nothing hidden", async () => {
    const { report, work, repo } = await jailed(
      [
        "id -u > seen-uid",
        "cat /proc/[0-9]*/environ 2>/dev/null | tr '\\0' '\\n' > seen-environ",
        "ls /proc | grep -c '^[0-9]' > seen-procs",
        "sudo -n true 2>/dev/null; echo $? > seen-sudo",
        "touch /usr/evil 2>/dev/null; echo $? > seen-ro",
        "echo hi > hello.txt",
        claim,
      ].join("; "),
    );
    expect(report.outcome, report.reason + report.outputTail).toBe("validated_progress");
    expect(report.jail?.uid).toBeGreaterThan(999_999_999);
    const at = (f: string) =>
      execFileSync("git", ["--git-dir", repo.gitDir, "show", `refs/heads/loopx/1-T1:${f}`], {
        encoding: "utf8",
      });
    expect(at("seen-uid").trim()).toBe(String(report.jail?.uid));
    expect(at("seen-environ")).not.toContain(SECRET);
    expect(Number(at("seen-procs"))).toBeLessThan(10);
    expect(at("seen-sudo").trim()).not.toBe("0");
    expect(at("seen-ro").trim()).not.toBe("0");
    expect(existsSync(join(work, ".git"))).toBe(true);
  });

  it("what the agent started with setsid, a double fork or nohup is gone when the slice ends", async () => {
    const before = Date.now();
    const { report } = await jailed(
      [
        "env -i setsid sh -c 'sleep 30' &",
        "( ( env -i sleep 31 & ) & )",
        "env -i nohup sleep 32 >/dev/null 2>&1 &",
        "echo hi > hello.txt",
        claim,
      ].join("\n"),
    );
    expect(report.outcome, report.reason + report.outputTail).toBe("validated_progress");
    expect(processesOf(report.jail?.uid ?? -1)).toEqual([]);
    expect(Date.now() - before).toBeLessThan(25_000);
  });

  it("validation runs in a fresh jail with another uid, on a clean checkout: `false` fails", async () => {
    const { report } = await jailed(
      `echo hi > hello.txt; echo '*.tmp' > .gitignore; echo junk > ignored.tmp; ${claim}`,
      { validationCommand: "test -f hello.txt && test ! -e ignored.tmp && id -u >&2 && false" },
    );
    expect(report.outcome).toBe("validation_failed");
    const validator = Number(/^([0-9]+)$/m.exec(report.validation?.outputTail ?? "")?.[1]);
    expect(validator).toBeGreaterThan(999_999_999);
    expect(validator).not.toBe(report.jail?.uid);
  });

  it("hooks, filters and fsmonitor planted in .git never run outside the jail", async () => {
    const marks = tempDir("loopx-marks-");
    const hook = (name: string) =>
      `printf '#!/bin/sh\\necho ran >> ${join(marks, name)}\\ncat\\n' > .h-${name} && chmod +x .h-${name}`;
    const { report, repo } = await jailed(
      [
        hook("clean"),
        hook("fsmonitor"),
        hook("post-commit"),
        "mkdir -p .hooks && cp .h-post-commit .hooks/post-commit && cp .h-post-commit .git/hooks/post-commit",
        'git config filter.x.clean "$PWD/.h-clean"',
        'git config core.fsmonitor "$PWD/.h-fsmonitor"',
        'git config core.hooksPath "$PWD/.hooks"',
        "echo '* filter=x' > .gitattributes",
        "echo hi > hello.txt",
        claim,
      ].join(" && "),
    );
    expect(report.outcome, report.reason).toBe("validated_progress");
    expect(readdirSync(marks)).toEqual([]);
    const files = execFileSync(
      "git",
      ["--git-dir", repo.gitDir, "ls-tree", "--name-only", "refs/heads/loopx/1-T1"],
      { encoding: "utf8" },
    );
    expect(files).toContain("hello.txt");
    expect(files).toContain(".gitattributes");
  });

  it("a result file that links elsewhere is not followed", async () => {
    const { report } = await jailed(`echo hi > hello.txt; ln -sf /etc/shadow "$LOOPX_RESULT"`);
    expect(report.outcome).toBe("validation_failed");
    expect(report.claimError).toMatch(/could not read the result file/);
    expect(report.outputTail).not.toContain("root:");
    expect(readFileSync("/etc/hostname", "utf8").length).toBeGreaterThan(0);
  });
});
