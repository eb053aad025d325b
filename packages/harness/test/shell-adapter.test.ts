import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { WITHHELD } from "@loopx/core";
import { afterAll, describe, expect, it } from "vitest";
import { runSlice, shellAdapter, toHarnessResult } from "../src/index.ts";
import { cleanupTempDirs, GOOD_CLAIM, gitWorkdir, sliceInput, waitGone } from "./fixtures.ts";

afterAll(cleanupTempDirs);

const writeClaim = (claim: unknown) => `printf '%s' '${JSON.stringify(claim)}' > "$LOOPX_RESULT"`;

describe("shell adapter", () => {
  it("reads the brief, writes work and a result: validated progress", async () => {
    const work = gitWorkdir();
    const cmd = `cp "$LOOPX_BRIEF" brief-copy.json && grep -q 'LOOPX_RESULT' "$LOOPX_BRIEF_MD" && echo hi > hello.txt && ${writeClaim(GOOD_CLAIM)}`;
    const report = await runSlice(shellAdapter({ command: cmd }), sliceInput(work));
    expect(report.outcome, report.reason + report.outputTail).toBe("validated_progress");
    expect(JSON.parse(readFileSync(join(work, "brief-copy.json"), "utf8"))).toEqual({
      todo: { key: "T1", title: "Create hello.txt" },
    });
    expect(report.delta.changedFiles).toEqual(["brief-copy.json", "hello.txt"]);
    expect(report.validation?.passed).toBe(true);
    const result = toHarnessResult(report, "T1");
    expect(result.outcome).toBe("progress");
    expect(result.handoff.done).toBe("wrote hello.txt");
    expect(result.cost.runnerMinutes).toBeGreaterThan(0);
  });

  it("a completion with a continuation and a commit is validated_completion", async () => {
    const work = gitWorkdir();
    const claim = {
      ...GOOD_CLAIM,
      outcome: "completed",
      continuation: { kind: "no_followup", reason: "nothing left" },
    };
    const cmd = `echo hi > hello.txt && git add hello.txt && git -c user.name=a -c user.email=a@b commit -qm 'add hello' && ${writeClaim(claim)}`;
    const report = await runSlice(shellAdapter({ command: cmd }), sliceInput(work));
    expect(report.outcome, report.reason).toBe("validated_completion");
    expect(report.delta.commits.map((c) => c.message)).toEqual(["add hello"]);
    const result = toHarnessResult(report, "T1");
    expect(result.outcome).toBe("completed");
    expect(result.continuation).toEqual({ kind: "no_followup", reason: "nothing left" });
    expect(result.commits[0]?.sha).toMatch(/^[0-9a-f]{40}$/);
  });

  it("a non-zero exit is a host failure (harness_error)", async () => {
    const work = gitWorkdir();
    const report = await runSlice(
      shellAdapter({ command: "echo doing; echo broken >&2; exit 3" }),
      sliceInput(work),
    );
    expect(report.outcome).toBe("host_failure");
    expect(report.failure).toBe("harness_error");
    expect(report.reason).toContain("exited with code 3");
    expect(report.outputTail).toContain("broken");
    const result = toHarnessResult(report, "T1");
    expect(result).toMatchObject({ outcome: "failed", failure: "harness_error" });
  });

  it("a wall-clock timeout kills the whole process group", async () => {
    const work = gitWorkdir();
    const started = Date.now();
    const report = await runSlice(
      shellAdapter({
        command: `sleep 30 & echo $! > bg.pid; while true; do echo tick; sleep 0.1; done`,
      }),
      sliceInput(work, { limits: { wallMs: 600, idleMs: 5000, maxTurns: 5, maxUsd: 1 } }),
    );
    expect(Date.now() - started).toBeLessThan(5000);
    expect(report.outcome).toBe("timeout");
    expect(report.process.stop).toBe("wall");
    const bg = Number(readFileSync(join(work, "bg.pid"), "utf8"));
    expect(await waitGone(bg)).toBe(true);
    expect(report.process.pid).not.toBeNull();
    expect(await waitGone(report.process.pid ?? -1)).toBe(true);
    expect(toHarnessResult(report, "T1")).toMatchObject({ outcome: "failed", failure: "timeout" });
  });

  it("silence past the idle limit is a timeout; a leader that ignores SIGTERM is SIGKILLed", async () => {
    const work = gitWorkdir();
    const report = await runSlice(
      shellAdapter({ command: `trap '' TERM; echo started; sleep 30` }),
      sliceInput(work, { limits: { wallMs: 20_000, idleMs: 400, maxTurns: 5, maxUsd: 1 } }),
    );
    expect(report.outcome).toBe("timeout");
    expect(report.process.stop).toBe("idle");
    expect(report.reason).toContain("no output for 400 ms");
    expect(await waitGone(report.process.pid ?? -1)).toBe(true);
  });

  it("a malformed $LOOPX_RESULT is validation_failed with the raw text as evidence", async () => {
    const work = gitWorkdir();
    const report = await runSlice(
      shellAdapter({
        command: `echo hi > hello.txt; echo '{"outcome": "progress", "hand' > "$LOOPX_RESULT"`,
      }),
      sliceInput(work),
    );
    expect(report.outcome).toBe("validation_failed");
    expect(report.claimError).toContain("not JSON");
    expect(report.outputTail).toContain('{"outcome": "progress", "hand');
    const result = toHarnessResult(report, "T1");
    expect(result.failure).toBe("validation_failed");
    expect(result.evidence.some((e) => e.kind === "log" && e.summary.includes('"hand'))).toBe(true);
  });

  it("a result of the wrong shape or no result at all is validation_failed", async () => {
    const work = gitWorkdir();
    const wrong = await runSlice(
      shellAdapter({
        command: `echo hi > hello.txt; echo '{"outcome": "great"}' > "$LOOPX_RESULT"`,
      }),
      sliceInput(work),
    );
    expect(wrong.outcome).toBe("validation_failed");
    expect(wrong.claimError).toContain("outcome");
    const none = await runSlice(
      shellAdapter({ command: "echo hi > hello2.txt" }),
      sliceInput(work),
    );
    expect(none.outcome).toBe("validation_failed");
    expect(none.claimError).toContain("no result file");
  });

  it("a failing validation command is not progress, whatever the agent claims", async () => {
    const work = gitWorkdir();
    const claim = { ...GOOD_CLAIM, outcome: "completed", continuation: { kind: "goal_active" } };
    const report = await runSlice(
      shellAdapter({ command: `echo hi > other.txt; ${writeClaim(claim)}` }),
      sliceInput(work, { validationCommand: "echo 'FAIL: hello.txt missing'; exit 1" }),
    );
    expect(report.outcome).toBe("validation_failed");
    expect(report.validation).toMatchObject({ passed: false, exitCode: 1 });
    const result = toHarnessResult(report, "T1");
    expect(result).toMatchObject({
      outcome: "failed",
      failure: "validation_failed",
      continuation: null,
    });
    expect(result.evidence[0]?.summary).toContain("FAIL: hello.txt missing");
  });

  it("an unchanged work tree is no_progress even when the agent claims progress", async () => {
    const work = gitWorkdir();
    const report = await runSlice(
      shellAdapter({ command: writeClaim(GOOD_CLAIM) }),
      sliceInput(work, { validationCommand: "true" }),
    );
    expect(report.outcome).toBe("no_progress");
    expect(toHarnessResult(report, "T1").outcome).toBe("no_change");
  });

  it("redacts secrets handed in and token shapes from everything it returns", async () => {
    const work = gitWorkdir();
    const secret = "s3cret-value-1234";
    const claim = {
      ...GOOD_CLAIM,
      handoff: {
        done: `used ${secret}`,
        next: "ghp_abcdefghijklmnopqrstuvwxyz0123456789",
        questions: [],
      },
    };
    const report = await runSlice(
      shellAdapter({
        command: `echo "key=$MY_API_KEY tok=gho_ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 ant=sk-ant-api03-xyzxyzxyzxyzxyzxyzxyzxyz"; echo "$EXTRA" ; echo hi > hello.txt; ${writeClaim(claim)}`,
      }),
      sliceInput(work, {
        env: { MY_API_KEY: "plainvalue-from-env", EXTRA: secret },
        secrets: [secret],
      }),
    );
    const all = JSON.stringify(report);
    expect(report.outputTail).toBe(WITHHELD);
    expect(report.claim?.handoff.done).toBe(WITHHELD);
    for (const leaked of [secret, "plainvalue-from-env", "gho_ABC", "sk-ant-api03", "ghp_abc"]) {
      expect(all).not.toContain(leaked);
    }
    expect(JSON.stringify(toHarnessResult(report, "T1"))).not.toContain(secret);
  });

  it("does not pass the runner's environment through, only a small base and what it is given", async () => {
    const work = gitWorkdir();
    process.env.LOOPX_TEST_CONTROL_PLANE_TOKEN = "control-plane-only";
    try {
      const report = await runSlice(
        shellAdapter({
          command: `echo "cp=[$LOOPX_TEST_CONTROL_PLANE_TOKEN] given=[$GIVEN]" > hello.txt; ${writeClaim(GOOD_CLAIM)}`,
        }),
        sliceInput(work, { env: { GIVEN: "yes" } }),
      );
      expect(report.outcome).toBe("validated_progress");
      expect(readFileSync(join(work, "hello.txt"), "utf8")).toBe("cp=[] given=[yes]\n");
    } finally {
      delete process.env.LOOPX_TEST_CONTROL_PLANE_TOKEN;
    }
  });

  it("caps captured output, keeping the tail", async () => {
    const work = gitWorkdir();
    const report = await runSlice(
      shellAdapter({ command: `yes 0123456789 | head -c 300000; echo; echo THE-END` }),
      sliceInput(work, { outputCapBytes: 4096 }),
    );
    expect(report.outputBytes).toBeGreaterThan(300_000);
    expect(report.outputTruncated).toBe(true);
    expect(report.outputTail.length).toBeLessThanOrEqual(4096 + 200);
    expect(report.outputTail).toContain("THE-END");
  });

  it("a command that cannot start is a host failure", async () => {
    const report = await runSlice(
      shellAdapter({ command: "true" }),
      sliceInput("/nonexistent-loopx-dir", { validationCommand: null }),
    );
    expect(report.outcome).toBe("host_failure");
    expect(report.failure).toBe("host_failure");
  });

  it("an abort from the caller stops the slice as a host failure", async () => {
    const work = gitWorkdir();
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    const report = await runSlice(
      shellAdapter({ command: "while true; do echo busy; sleep 0.1; done" }),
      sliceInput(work, { signal: controller.signal }),
    );
    expect(report.outcome).toBe("host_failure");
    expect(report.reason).toContain("cancelled");
    expect(report.validation).toBeNull();
    expect(await waitGone(report.process.pid ?? -1)).toBe(true);
  });

  it("an interrupt keeps the work tree as work in progress, unvalidated", async () => {
    const work = gitWorkdir();
    const controller = new AbortController();
    const started = join(work, "half.txt");
    const waitForWork = (async () => {
      while (!existsSync(started)) await new Promise((r) => setTimeout(r, 20));
      controller.abort();
    })();
    const report = await runSlice(
      shellAdapter({ command: "echo half > half.txt; while true; do sleep 0.1; done" }),
      sliceInput(work, { interrupt: controller.signal, validationCommand: "touch validated" }),
    );
    await waitForWork;
    expect(report.outcome).toBe("interrupted");
    expect(report.validation).toBeNull();
    expect(existsSync(join(work, "validated"))).toBe(false);
    expect(report.delta.changedFiles).toEqual(["half.txt"]);
    expect(await waitGone(report.process.pid ?? -1)).toBe(true);
    const result = toHarnessResult(report, "T1");
    expect(result.outcome).toBe("failed");
    expect(result.failure).toBe("timeout");
    expect(result.handoff.done).toContain("[interrupted]");
  });
  it("the checkpoint stops the slice before its wall limit and keeps the work tree, unvalidated", async () => {
    const work = gitWorkdir();
    const deadline = new Date(Date.now() + 1500);
    const report = await runSlice(
      shellAdapter({ command: "echo half > half.txt; while true; do echo busy; sleep 0.1; done" }),
      sliceInput(work, { deadline, validationCommand: "touch validated" }),
    );
    expect(report.outcome).toBe("checkpoint");
    expect(report.reason).toContain(`cut at the tick's checkpoint (${deadline.toISOString()})`);
    expect(report.validation).toBeNull();
    expect(existsSync(join(work, "validated"))).toBe(false);
    expect(report.delta.changedFiles).toEqual(["half.txt"]);
    expect(await waitGone(report.process.pid ?? -1)).toBe(true);
    const result = toHarnessResult(report, "T1");
    expect(result.outcome).toBe("failed");
    expect(result.failure).toBe("timeout");
    expect(result.handoff.done).toContain("[checkpoint] cut at the tick's checkpoint");
  });
  it("a checkpoint after the wall limit leaves the wall limit in charge", async () => {
    const work = gitWorkdir();
    const report = await runSlice(
      shellAdapter({ command: "echo half > half.txt; while true; do echo busy; sleep 0.1; done" }),
      sliceInput(work, {
        deadline: new Date(Date.now() + 3_600_000),
        limits: { wallMs: 1500, idleMs: 15_000, maxTurns: 10, maxUsd: 5 },
      }),
    );
    expect(report.outcome).toBe("timeout");
    expect(report.reason).toContain("wall-clock limit");
  });
});
