/**
 * One tick of a goal through the real action with the real `codex` against a scripted
 * Responses server, run once per bubblewrap variant (one e2e file each): the same outcome,
 * the same metering, whether or not the runner has a system bubblewrap. Priced from the
 * shipped table, or from the repository's `LOOPX_CODEX_PRICES` variable when given.
 */
import { OPENAI_PRICES, type PriceTable, usdFor } from "@loopx/harness";
import { execCommand, message, type ScriptedOpenAI } from "@loopx/sandbox/models";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { BubblewrapVariant } from "../../packages/harness/test/bubblewrap.ts";
import { resultPathIn } from "../../packages/harness/test/fixtures.ts";
import { startCodexTicks } from "./codex-ticks.ts";
import type { TickHarness } from "./tick-api-harness.ts";
import { dispatchOneTick, finishRun } from "./tick-workflow-runs.ts";

const API_KEY = "sk-openai-codex-e2e-0123456789abcdef";
/** Where the tick's prices come from: the shipped table, or a repository variable. */
export type CodexPricing =
  | { from: "shipped"; model: string }
  | { from: "variable"; model: string; prices: PriceTable };
/** What the scripted server reports for each reply: OpenAI counts cached tokens in input. */
const USAGE = { input_tokens: 12_000, output_tokens: 800, cached_tokens: 2_000 };
const CLAIM = {
  outcome: "progress",
  handoff: { done: "Listed the first widget", next: "List the rest", questions: [] },
  evidence: [{ kind: "note", summary: "WIDGETS.md started" }],
};

export function codexTickScenario(
  variant: BubblewrapVariant,
  pricing: CodexPricing = { from: "shipped", model: "gpt-5.5" },
): void {
  const MODEL = pricing.model;
  const serverUrl = inject("pgUrl");
  const skip = !serverUrl ? inject("pgSkipReason") : variant.skip;
  // A skipped variant is a gap in what CI proves: say so where the run's output shows it.
  if (skip) console.warn(`codex e2e ${variant.name} is SKIPPED: ${skip}`);
  /**
   * Scenario: a goal's tick on the sandbox's runner, this repository's loopx-tick.yml verbatim;
   * the repository sets `OPENAI_BASE_URL` (a variable) and `OPENAI_API_KEY` (a secret). The
   * agent job's real `codex` works on the todo branch in LoopX's jail: its one command appends
   * to WIDGETS.md, records which kind of key it holds and whether the provider URL reached it,
   * and writes the result. The branch is pushed; the slice is charged what the server reported
   * at the price (shipped, or the variable's) of the model it answered as.
   */
  describe.skipIf(skip !== "")(
    `e2e: codex through the action, ${variant.name}, ${pricing.from} prices${skip ? ` — skipped: ${skip}` : ""}`,
    () => {
      let h: TickHarness;
      let model: ScriptedOpenAI;
      let close = async () => {};
      beforeAll(async () => {
        ({ h, model, close } = await startCodexTicks({
          serverUrl: serverUrl ?? "",
          modelId: MODEL,
          apiKey: API_KEY,
          path: variant.path,
          ...(pricing.from === "variable"
            ? { vars: { LOOPX_CODEX_PRICES: JSON.stringify({ [MODEL]: pricing.prices }) } }
            : {}),
          configLines: ["validationCommand: test -s WIDGETS.md"],
          turns: [
            (req) => ({
              output: [
                message("Starting the list."),
                execCommand(
                  [
                    `echo "- gear" >> WIDGETS.md`,
                    `case "$OPENAI_API_KEY" in loopx-slice-*) echo capability;; sk-*) echo key;; *) echo none;; esac > /tmp/key-kind`,
                    `echo "\${OPENAI_BASE_URL:-unset}" > /tmp/base-url`,
                    `printf '%s' '${JSON.stringify(CLAIM)}' > ${resultPathIn(req.prompt)}`,
                    `cat /tmp/key-kind /tmp/base-url`,
                  ].join(" && "),
                ),
              ],
              usage: USAGE,
            }),
            { output: [message("Done.")], usage: USAGE },
          ],
        }));
      });
      afterAll(() => close());

      it("runs codex through the metering proxy, pushes its work and charges the server's tokens at the model's price", async () => {
        const goal = await h.startGoal("List the widgets", ["Start WIDGETS.md"]);
        const issue = goal.goal.issue.number;
        const done = await finishRun(h, (await dispatchOneTick(h, issue)).id, 120_000);
        expect(done.run.conclusion, done.logs).toBe("success");
        const branch = done.jobs.ask?.outputs.branch ?? "";
        const repo = h.sandbox.store.repoByName("acme", "widgets");
        const head = repo.branches.get(branch) ?? "";
        expect(h.sandbox.store.git(repo).readFile(head, "WIDGETS.md")).toBe("- gear\n");

        // Every model request reached the server with the real key, which codex never held:
        // the proxy put it there in place of the slice's capability.
        const calls = model.requests.filter(
          (r) => r.method === "POST" && r.path === "/v1/responses",
        );
        expect(calls).toHaveLength(2);
        for (const call of calls) {
          expect(call.headers.authorization).toBe(`Bearer ${API_KEY}`);
          expect(JSON.stringify(call.headers)).not.toContain("loopx-slice-");
        }
        // What codex's command printed came back to the model as the tool's output.
        const toolOutput = JSON.stringify(calls[1]?.body);
        expect(toolOutput).toContain("capability");
        expect(toolOutput).not.toContain("key\\nunset");
        expect(toolOutput).toContain("unset");
        // The action masks the key (GitHub shows no `::add-mask::` line); nothing else shows it.
        const shown = done.logs.split("\n").filter((l) => !l.startsWith("::add-mask::"));
        expect(shown.join("\n")).not.toContain(API_KEY);

        await h.settle();
        const state = await h.store.loadGoal(goal.goal.id);
        const tick = state?.ticks.find((t) => t.id === done.jobs.ask?.outputs["tick-id"]);
        expect(tick?.outcome).toBe("progress");
        const prices = pricing.from === "variable" ? pricing.prices : OPENAI_PRICES[MODEL];
        if (!prices) throw new Error(`the shipped table has no ${MODEL}`);
        const perReply = usdFor(prices, {
          input: USAGE.input_tokens - USAGE.cached_tokens,
          cachedInput: USAGE.cached_tokens,
          output: USAGE.output_tokens,
        });
        expect(tick?.cost?.usd).toBeCloseTo(calls.length * perReply, 10);
        expect(tick?.cost?.tokens).toBe(calls.length * (USAGE.input_tokens + USAGE.output_tokens));
        expect(done.logs).not.toMatch(/has no price in LoopX's table/);
      }, 180_000);
    },
  );
}
