/**
 * The codex adapter against the REAL `codex` CLI (npm @openai/codex) and a scripted Responses
 * API on loopback. Codex 0.17x runs commands through its custom `exec` tool, which the
 * scripted server drives with execCommand().
 */
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { join } from "node:path";
import {
  execCommand,
  message,
  type OpenAIScriptStep,
  type ScriptedOpenAI,
  startScriptedOpenAI,
} from "@loopx/sandbox/models";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { codexAdapter, runSlice, type SliceInput, toHarnessResult } from "../src/index.ts";
import { type BubblewrapVariant, bubblewrapVariants } from "./bubblewrap.ts";
import {
  cleanupTempDirs,
  cliBin,
  GOOD_CLAIM,
  gitWorkdir,
  resultPathIn,
  sliceInput,
  tempDir,
} from "./fixtures.ts";

afterAll(cleanupTempDirs);

const API_KEY = "sk-test-codex-0123456789";
const PRICES = { inputPerMTok: 2, outputPerMTok: 8, cachedInputPerMTok: 0.5 };
const servers: ScriptedOpenAI[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function slice(
  variant: BubblewrapVariant,
  turns: OpenAIScriptStep[],
  work: string,
  over: Partial<SliceInput> = {},
) {
  const server = await startScriptedOpenAI({ turns });
  servers.push(server);
  const adapter = codexAdapter({
    bin: cliBin("codex"),
    prices: PRICES,
    provider: { baseUrl: server.url },
  });
  const report = await runSlice(
    adapter,
    sliceInput(work, {
      env: { OPENAI_API_KEY: API_KEY, HOME: tempDir("loopx-home-"), PATH: variant.path },
      secrets: [API_KEY],
      ...over,
    }),
  );
  return { report, server };
}

const writeResult =
  (claim: unknown): OpenAIScriptStep =>
  (req) => ({
    output: [execCommand(`printf '%s' '${JSON.stringify(claim)}' > ${resultPathIn(req.prompt)}`)],
  });

/**
 * Each variant runs the same tests: the adapter turns codex's own sandbox off, so whether a
 * system bubblewrap is on PATH must change nothing.
 */
describe.each(bubblewrapVariants())(
  "codex adapter (real codex CLI, scripted Responses API), $name",
  (variant) => {
    if (variant.skip) {
      console.warn(`codex adapter tests ${variant.name} are SKIPPED: ${variant.skip}`);
      it.skip(`skipped ${variant.name}: ${variant.skip}`, () => {});
      return;
    }

    it("runs commands, writes the result, validation passes: validated progress priced from tokens", async () => {
      const work = gitWorkdir();
      const { report, server } = await slice(
        variant,
        [
          {
            output: [message("Creating hello.txt"), execCommand("echo hi > hello.txt")],
            usage: { input_tokens: 100_000, output_tokens: 10_000 },
          },
          writeResult(GOOD_CLAIM),
          { output: [message("Done.")] },
        ],
        work,
      );
      expect(report.outcome, `${report.reason}\n${report.outputTail}`).toBe("validated_progress");
      expect(readFileSync(join(work, "hello.txt"), "utf8")).toBe("hi\n");
      expect(report.sessionId).toBeTruthy();
      // 100,000+20 input and 10,000+10 output tokens at $2 / $8 per million.
      expect(report.cost.tokens).toBe(110_030);
      expect(report.cost.usd).toBeCloseTo((100_020 * 2 + 10_010 * 8) / 1e6, 6);
      expect(report.turns).toBe(2);
      expect(server.turnsServed()).toBe(3);
      expect(JSON.stringify(server.requests[0]?.body)).toContain("Create hello.txt");
      expect(JSON.stringify(report)).not.toContain(API_KEY);
      expect(toHarnessResult(report, "T1")).toMatchObject({ outcome: "progress", failure: null });
    });

    it("no result and a failing validation: validation_failed", async () => {
      const work = gitWorkdir();
      const { report } = await slice(
        variant,
        [{ output: [execCommand("echo wrong > other.txt")] }, { output: [message("Done.")] }],
        work,
      );
      expect(report.outcome, `${report.reason}\n${report.outputTail}`).toBe("validation_failed");
      expect(report.claimError).toContain("no result file");
      expect(report.validation?.passed).toBe(false);
      expect(toHarnessResult(report, "T1")).toMatchObject({
        outcome: "failed",
        failure: "validation_failed",
      });
    });

    it("codex has no turn flag: the adapter stops it past maxTurns actions", async () => {
      const work = gitWorkdir();
      const turns = Array.from({ length: 6 }, (_, i) => ({
        output: [execCommand(`echo step${i} >> steps.log`)],
      }));
      const { report } = await slice(variant, turns, work, {
        limits: { wallMs: 30_000, idleMs: 15_000, maxTurns: 2, maxUsd: 5 },
      });
      expect(report.outcome, `${report.reason}\n${report.outputTail}`).toBe("turn_limit");
      const steps = readFileSync(join(work, "steps.log"), "utf8").trim().split("\n");
      expect(steps.length).toBeLessThanOrEqual(3);
    });

    it("codex's own sandbox is off (LoopX's jail is the isolation): a command reaches the network", async () => {
      const work = gitWorkdir();
      // Codex's workspace-write sandbox unshares the network; danger-full-access does not.
      const probe = createServer((_, res) => res.writeHead(204).end());
      await new Promise<void>((r) => probe.listen(0, "127.0.0.1", r));
      const address = probe.address();
      const probeUrl =
        typeof address === "object" && address ? `http://127.0.0.1:${address.port}/` : "";
      const { report } = await slice(
        variant,
        [
          (req) => ({
            output: [
              execCommand(
                `node -e 'fetch(process.argv[1]).then((r) => require("fs").writeFileSync("net.txt", String(r.status)))' ${probeUrl} && echo hi > hello.txt && printf '%s' '${JSON.stringify(GOOD_CLAIM)}' > ${resultPathIn(req.prompt)}`,
              ),
            ],
          }),
          { output: [message("Done.")] },
        ],
        work,
      );
      await new Promise((r) => probe.close(r));
      expect(report.outcome, `${report.reason}\n${report.outputTail}`).toBe("validated_progress");
      expect(readFileSync(join(work, "net.txt"), "utf8")).toBe("204");
    });
  },
);
