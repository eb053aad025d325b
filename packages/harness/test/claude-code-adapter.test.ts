/**
 * The claude-code adapter against the REAL `claude` CLI (npm @anthropic-ai/claude-code) and a
 * scripted Messages API on loopback. Nothing here reaches the internet.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { WITHHELD } from "@loopx/core";
import {
  type AnthropicScriptStep,
  bash,
  type ScriptedAnthropic,
  startScriptedAnthropic,
  text,
  writeFile,
} from "@loopx/sandbox/models";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { claudeCodeAdapter, runSlice, type SliceInput, toHarnessResult } from "../src/index.ts";
import {
  cleanupTempDirs,
  cliBin,
  GOOD_CLAIM,
  gitWorkdir,
  resultPathIn,
  sliceInput,
  tempDir,
  waitGone,
} from "./fixtures.ts";

afterAll(cleanupTempDirs);

const API_KEY = "sk-ant-test-0123456789abcdef";
const servers: ScriptedAnthropic[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function slice(
  turns: AnthropicScriptStep[],
  over: Partial<SliceInput> = {},
  work = gitWorkdir(),
) {
  const server = await startScriptedAnthropic({ turns });
  servers.push(server);
  const adapter = claudeCodeAdapter({ bin: cliBin("claude") });
  const input = sliceInput(work, {
    env: {
      ANTHROPIC_BASE_URL: server.url,
      ANTHROPIC_API_KEY: API_KEY,
      HOME: tempDir("loopx-home-"),
    },
    secrets: [API_KEY],
    allowedTools: ["Write", "Bash"],
    ...over,
  });
  const report = await runSlice(adapter, input);
  return { report, server, work };
}

/** Writes hello.txt, then the result file at the path the prompt names. */
const happyTurns = (work: string, claim: unknown = GOOD_CLAIM): AnthropicScriptStep[] => [
  { content: [text("Creating the file."), writeFile(join(work, "hello.txt"), "hi\n")] },
  (req) => ({ content: [writeFile(resultPathIn(req.prompt), JSON.stringify(claim))] }),
  { content: [text("Done: hello.txt written.")] },
];

describe("claude-code adapter (real claude CLI, scripted model)", () => {
  it("writes a file and the result, validation passes: validated progress with cost and session", async () => {
    const work = gitWorkdir();
    const { report, server } = await slice(happyTurns(work), {}, work);
    expect(report.outcome, `${report.reason}\n${report.outputTail}`).toBe("validated_progress");
    expect(readFileSync(join(work, "hello.txt"), "utf8")).toBe("hi\n");
    // Nothing of the CLI's own (config, sessions) lands in the work tree.
    expect(report.delta.changedFiles).toEqual(["hello.txt"]);
    expect(report.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(report.cost.usd).toBeGreaterThan(0);
    expect(report.cost.tokens).toBeGreaterThan(0);
    expect(report.turns).toBe(3);
    expect(report.claim?.handoff.done).toBe("wrote hello.txt");
    expect(server.turnsServed()).toBe(3);
    // The brief reached the model as the prompt.
    const first = server.requests.find((r) => r.path === "/v1/messages");
    expect(JSON.stringify(first?.body)).toContain("Create hello.txt");
    const result = toHarnessResult(report, "T1");
    expect(result).toMatchObject({
      outcome: "progress",
      failure: null,
      sessionId: report.sessionId,
    });
    expect(result.cost.usd).toBe(report.cost.usd);
  });

  it("the same slice with a failing validation command is validation_failed", async () => {
    const work = gitWorkdir();
    const { report } = await slice(
      happyTurns(work),
      {
        validationCommand: "grep -q bye hello.txt",
      },
      work,
    );
    expect(report.outcome, report.reason).toBe("validation_failed");
    expect(report.validation).toMatchObject({ passed: false, exitCode: 1 });
    expect(toHarnessResult(report, "T1")).toMatchObject({
      outcome: "failed",
      failure: "validation_failed",
    });
  });

  it("eight scripted tool calls with maxTurns 3 stop as turn_limit (error_max_turns)", async () => {
    const work = gitWorkdir();
    const turns = Array.from({ length: 8 }, (_, i) => ({
      content: [bash(`echo step${i} >> steps.log`)],
    }));
    const { report } = await slice(
      turns,
      {
        limits: { wallMs: 30_000, idleMs: 15_000, maxTurns: 3, maxUsd: 5 },
      },
      work,
    );
    expect(report.outcome, `${report.reason}\n${report.outputTail}`).toBe("turn_limit");
    expect(readFileSync(join(work, "steps.log"), "utf8").trim().split("\n")).toEqual([
      "step0",
      "step1",
      "step2",
    ]);
    expect(report.outputTail).toContain("error_max_turns");
    expect(toHarnessResult(report, "T1")).toMatchObject({
      outcome: "failed",
      failure: "turn_limit",
    });
  });

  it("a stalled model trips the idle limit and the process group is killed", async () => {
    const { report, server } = await slice([{ content: [text("late")], stallMs: 20_000 }], {
      limits: { wallMs: 30_000, idleMs: 2500, maxTurns: 5, maxUsd: 5 },
    });
    expect(report.outcome, report.outputTail).toBe("timeout");
    // The stall outlasts the idle limit and the wall limit outlasts both: only idle can stop it.
    expect(report.process.stop).toBe("idle");
    expect(server.requests.some((r) => r.path === "/v1/messages")).toBe(true);
    expect(report.process.pid).not.toBeNull();
    expect(await waitGone(report.process.pid ?? -1)).toBe(true);
  });

  it("a tiny wall-clock limit is a timeout", async () => {
    const { report } = await slice([{ content: [text("late")], stallMs: 20_000 }], {
      limits: { wallMs: 1000, idleMs: 20_000, maxTurns: 5, maxUsd: 5 },
    });
    expect(report.outcome).toBe("timeout");
    expect(report.process.stop).toBe("wall");
    expect(await waitGone(report.process.pid ?? -1)).toBe(true);
    expect(toHarnessResult(report, "T1")).toMatchObject({ outcome: "failed", failure: "timeout" });
  });

  it("usage costing more than the USD limit is over_budget, stopped before the next tool call", async () => {
    const work = gitWorkdir();
    const expensive = { input_tokens: 1_000_000, output_tokens: 1000 };
    const { report } = await slice(
      [
        { content: [bash("echo one >> spend.log")], usage: expensive },
        { content: [bash("echo two >> spend.log")], usage: expensive },
        { content: [bash("echo three >> spend.log")], usage: expensive },
      ],
      { limits: { wallMs: 30_000, idleMs: 15_000, maxTurns: 10, maxUsd: 0.5 } },
      work,
    );
    expect(report.outcome, `${report.reason}\n${report.outputTail}`).toBe("over_budget");
    expect(report.process.stop).toBe("over_budget");
    expect(report.cost.usd).toBeGreaterThan(0.5);
    expect(report.cost.tokens).toBeGreaterThanOrEqual(1_000_000);
    const log = existsSync(join(work, "spend.log"))
      ? readFileSync(join(work, "spend.log"), "utf8")
      : "";
    expect(log).not.toContain("two");
    expect(toHarnessResult(report, "T1")).toMatchObject({
      outcome: "failed",
      failure: "budget_exceeded",
    });
  });

  it("a malformed result file is validation_failed with the raw text as evidence", async () => {
    const work = gitWorkdir();
    const { report } = await slice(
      [
        { content: [writeFile(join(work, "hello.txt"), "hi\n")] },
        (req) => ({ content: [writeFile(resultPathIn(req.prompt), "{ outcome: progress, oops")] }),
      ],
      {},
      work,
    );
    expect(report.outcome).toBe("validation_failed");
    expect(report.claimError).toContain("not JSON");
    expect(report.outputTail).toContain("{ outcome: progress, oops");
    const result = toHarnessResult(report, "T1");
    expect(result.evidence.some((e) => e.kind === "log" && e.summary.includes("oops"))).toBe(true);
  });

  it("redacts the API key and token shapes that show up in the output", async () => {
    const work = gitWorkdir();
    const { report } = await slice(
      [
        {
          content: [
            bash(
              'echo "key=$ANTHROPIC_API_KEY gh=ghs_abcdefghijklmnop0123456789ABCDEFGHIJ pat=github_pat_11ABCDEFG0123456789abcdefghij"',
            ),
          ],
        },
        ...happyTurns(work),
      ],
      {},
      work,
    );
    expect(report.outcome, report.reason).toBe("validated_progress");
    expect(report.outputTail).toBe(WITHHELD);
    const all = JSON.stringify(report);
    for (const leaked of [API_KEY, "ghs_abcdef", "github_pat_11"])
      expect(all).not.toContain(leaked);
  });

  it("refuses --dangerously-* flags", () => {
    expect(() => claudeCodeAdapter({ extraArgs: ["--dangerously-skip-permissions"] })).toThrow(
      /allowedTools/,
    );
  });
});

describe("claude-code adapter: process group and continuity", () => {
  it("a background job started through the Bash tool dies with the slice", async () => {
    const work = gitWorkdir();
    const { report } = await slice(
      [
        { content: [bash("(sleep 60 & echo $! > bg.pid)")] },
        { content: [text("waiting")], stallMs: 25_000 },
      ],
      // Idle long enough that a loaded machine's CLI start-up and first tool call fit in it.
      { limits: { wallMs: 40_000, idleMs: 10_000, maxTurns: 5, maxUsd: 5 } },
      work,
    );
    expect(report.outcome).toBe("timeout");
    const bg = Number(readFileSync(join(work, "bg.pid"), "utf8"));
    expect(bg).toBeGreaterThan(0);
    expect(await waitGone(bg)).toBe(true);
  });

  it("--resume continues a session only when its files were kept (configDir)", async () => {
    const work = gitWorkdir();
    const configDir = tempDir("loopx-claude-config-");
    const first = await startScriptedAnthropic({ turns: happyTurns(work) });
    const second = await startScriptedAnthropic({ turns: [] });
    servers.push(first, second);
    const input = (url: string) =>
      sliceInput(work, {
        env: { ANTHROPIC_BASE_URL: url, ANTHROPIC_API_KEY: API_KEY, HOME: tempDir("loopx-home-") },
        secrets: [API_KEY],
        allowedTools: ["Write"],
        validationCommand: null,
      });
    const one = await runSlice(
      claudeCodeAdapter({ bin: cliBin("claude"), configDir }),
      input(first.url),
    );
    expect(one.outcome, one.reason).toBe("validated_progress");
    expect(one.sessionId).toBeTruthy();
    const two = await runSlice(
      claudeCodeAdapter({ bin: cliBin("claude"), configDir, resumeSessionId: one.sessionId ?? "" }),
      input(second.url),
    );
    expect(two.process.exitCode, two.outputTail).toBe(0);
    const resumed = second.requests.find(
      (r) => r.path === "/v1/messages" && JSON.stringify(r.body).includes('"tools"'),
    );
    // The resumed conversation carries the first slice's assistant turns.
    expect(JSON.stringify(resumed?.body)).toContain("Creating the file.");
  });

  it("also reads the single-object json output format", async () => {
    const work = gitWorkdir();
    const server = await startScriptedAnthropic({ turns: happyTurns(work) });
    servers.push(server);
    const report = await runSlice(
      claudeCodeAdapter({ bin: cliBin("claude"), outputFormat: "json" }),
      sliceInput(work, {
        env: {
          ANTHROPIC_BASE_URL: server.url,
          ANTHROPIC_API_KEY: API_KEY,
          HOME: tempDir("loopx-home-"),
        },
        allowedTools: ["Write"],
      }),
    );
    expect(report.outcome, report.reason).toBe("validated_progress");
    expect(report.turns).toBe(3);
    expect(report.cost.usd).toBeGreaterThan(0);
    expect(report.sessionId).toBeTruthy();
  });
});
