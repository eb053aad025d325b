/**
 * `bench:loop --real-model codex` wiring, with the REAL `codex` CLI (node_modules) against a
 * scripted Responses API on loopback: the files its commands leave and the claims of its
 * result file come back, its tokens are the turns' usage, and running past the action limit
 * (codex has no turn flag of its own) stops it with nothing claimed.
 */
import { join } from "node:path";
import { execCommand, message, type OpenAITurn, startScriptedOpenAI } from "@loopx/sandbox/models";
import { describe, expect, it } from "vitest";
import { memoryTree } from "../../bench/loop/agent/memory-tree.ts";
import { type RealAgentLimits, realModelAgent } from "../../bench/loop/agent/real-agent.ts";
import { realModelSetup } from "../../bench/loop/agent/real-model-setup.ts";
import { PARSER } from "./agent-fixtures.ts";
import { inputFor, pathsIn } from "./real-model-fixtures.ts";

const KEY = "sk-openai-bench-0123456789";

/** A shell command writing `content` (no single quotes in it) to `path`. */
const put = (path: string, content: string) => execCommand(`printf '%s' '${content}' > '${path}'`);

async function codexSlice(
  turns: ((paths: { workDir: string; resultPath: string }) => OpenAITurn)[],
  limits: RealAgentLimits,
) {
  const model = await startScriptedOpenAI({
    apiKey: KEY,
    turns: turns.map((t) => (req: { prompt: string }) => t(pathsIn(req.prompt))),
  });
  try {
    const tree = memoryTree([
      ["README.md", "# parser\n"],
      ["src/old.js", "old\n"],
    ]);
    const agent = realModelAgent(
      realModelSetup("codex", { OPENAI_API_KEY: KEY, OPENAI_BASE_URL: model.url }),
      limits,
    );
    const outcome = await agent(inputFor(tree, `## Your todo: ${PARSER}\n`));
    return { outcome, tree, model };
  } finally {
    await model.close();
  }
}

describe("the real-model agent with the real codex", () => {
  it("brings back what its commands changed and the claims of its result file", async () => {
    const { outcome, tree } = await codexSlice(
      [
        (p) => ({
          output: [put(join(p.workDir, "src/parse.js"), "export const parse = 1;")],
          usage: { input_tokens: 900, output_tokens: 100 },
        }),
        (p) => ({ output: [execCommand(`rm '${join(p.workDir, "src/old.js")}'`)] }),
        (p) => ({
          output: [
            put(
              p.resultPath,
              JSON.stringify({
                todo: PARSER,
                finishedTodo: true,
                allDone: false,
                summary: "parsed",
              }),
            ),
          ],
        }),
        () => ({ output: [message("Done.")], usage: { input_tokens: 1000, output_tokens: 5 } }),
      ],
      { maxTurns: 10, timeoutMs: 120_000 },
    );
    expect(outcome).toMatchObject({
      todo: PARSER,
      finishedTodo: true,
      progressed: true,
      died: false,
      wroteFiles: ["src/parse.js"],
      summary: "parsed",
    });
    // codex reports usage once per exec turn: the sum of what the server said for each request.
    expect(outcome.tokens).toBe(900 + 100 + (10 + 5) * 2 + 1000 + 5);
    expect(tree.snapshot()).toEqual(
      new Map([
        ["README.md", "# parser\n"],
        ["src/parse.js", "export const parse = 1;"],
      ]),
    );
  });

  it("is stopped past its action limit and claims nothing", async () => {
    const { outcome, model } = await codexSlice(
      [0, 1, 2, 3, 4, 5].map((i) => (p: { workDir: string; resultPath: string }) => ({
        output: [
          i === 0
            ? put(p.resultPath, JSON.stringify({ todo: PARSER, finishedTodo: true, allDone: true }))
            : put(join(p.workDir, `step-${i}.txt`), String(i)),
        ],
      })),
      { maxTurns: 2, timeoutMs: 120_000 },
    );
    expect(model.turnsServed()).toBeLessThan(6);
    expect(outcome).toMatchObject({ died: true, finishedTodo: false, allDone: false });
    expect(outcome.summary).toBe(
      "codex claimed nothing: codex was stopped: its turn limit (2 actions)",
    );
  });
});
