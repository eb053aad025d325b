/**
 * `bench:loop --real-model claude` wiring, with the REAL `claude` CLI (node_modules) against a
 * scripted Anthropic server on loopback: the agent the arms call copies the checkout out, runs
 * the CLI on the prompt, and brings back the files it left and the claims of its result file;
 * a failed run, a turn limit or a missing or malformed result file claims nothing.
 */
import { existsSync } from "node:fs";
import { createServer } from "node:http";
import { join } from "node:path";
import { type AnthropicTurn, startScriptedAnthropic, text, writeFile } from "@loopx/sandbox/models";
import { describe, expect, it } from "vitest";
import { memoryTree } from "../../bench/loop/agent/memory-tree.ts";
import { type RealAgentLimits, realModelAgent } from "../../bench/loop/agent/real-agent.ts";
import { realModelSetup } from "../../bench/loop/agent/real-model-setup.ts";
import { CLI, EMPTY, PARSER } from "./agent-fixtures.ts";
import { inputFor, pathsIn } from "./real-model-fixtures.ts";

const KEY = "sk-ant-bench-0123456789";
const LIMITS: RealAgentLimits = { maxTurns: 10, timeoutMs: 60_000 };

/** Runs one slice of the real claude against a server playing `turns`. */
async function claudeSlice(
  turns: ((paths: { workDir: string; resultPath: string }) => AnthropicTurn)[],
  opts: {
    limits?: RealAgentLimits;
    prompt?: string;
    comments?: { author: string; body: string }[];
  } = {},
) {
  const model = await startScriptedAnthropic({
    apiKey: KEY,
    turns: turns.map((t) => (req: { prompt: string }) => t(pathsIn(req.prompt))),
  });
  try {
    const tree = memoryTree([
      ["README.md", "# parser\n"],
      ["src/old.js", "export const old = 1;\n"],
    ]);
    const agent = realModelAgent(
      realModelSetup("claude", { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: model.url }),
      opts.limits ?? LIMITS,
    );
    const outcome = await agent(
      inputFor(
        tree,
        opts.prompt ?? `## Your todo: ${PARSER}\n\nWork on this todo until it is done.\n`,
        {
          comments: opts.comments ?? [],
          pull: {
            number: 7,
            checks: [{ name: "ci", conclusion: "failure", summary: "2 tests failed" }],
            reviews: [],
          },
        },
      ),
    );
    return { outcome, tree, model };
  } finally {
    await model.close();
  }
}

const claims = (o: Record<string, unknown>) => JSON.stringify(o);

describe("the real-model agent with the real claude", () => {
  it("brings back the files it wrote and the claims of its result file, and counts its tokens", async () => {
    let seen = { workDir: "", resultPath: "" };
    const { outcome, tree, model } = await claudeSlice(
      [
        (p) => {
          seen = p;
          return {
            content: [
              writeFile(
                join(p.workDir, "src/parse.js"),
                "export const parse = (s) => s.split(',');\n",
              ),
              writeFile(join(p.workDir, "NOTES.md"), "- parser: done\n"),
              writeFile(
                p.resultPath,
                claims({
                  todo: PARSER,
                  finishedTodo: true,
                  allDone: false,
                  proposedTodos: [EMPTY, CLI],
                  questions: ["Should empty input be an error?"],
                  summary: "Added the parser.",
                }),
              ),
            ],
            usage: { input_tokens: 1200, output_tokens: 300 },
          };
        },
        () => ({ content: [text("Done.")], usage: { input_tokens: 1500, output_tokens: 20 } }),
      ],
      { comments: [{ author: "alice", body: "please keep the API small" }] },
    );

    expect(outcome).toEqual({
      todo: PARSER,
      progressed: true,
      finishedTodo: true,
      allDone: false,
      // NOTES.md is the agent's memory, not work: it reaches the tree, not this list.
      wroteFiles: ["src/parse.js"],
      proposedTodos: [EMPTY, CLI],
      questions: ["Should empty input be an error?"],
      tokens: 1200 + 300 + 1500 + 20,
      died: false,
      obeyed: [],
      summary: "Added the parser.",
    });
    expect(tree.snapshot()).toEqual(
      new Map([
        ["NOTES.md", "- parser: done\n"],
        ["README.md", "# parser\n"],
        ["src/old.js", "export const old = 1;\n"],
        ["src/parse.js", "export const parse = (s) => s.split(',');\n"],
      ]),
    );
    // The model got the checkout to work in, the arm's prompt and what the read tools show.
    const prompt = model.requests
      .map((r) => JSON.stringify(r.body))
      .find((b) => b.includes("Result file:"));
    expect(prompt).toContain(`## Your todo: ${PARSER}`);
    expect(prompt).toContain("alice: please keep the API small");
    expect(prompt).toContain("ci: failure 2 tests failed");
    // Every model request carried the key from the environment.
    expect(
      model.requests
        .filter((r) => r.method === "POST")
        .every((r) => r.headers["x-api-key"] === KEY),
    ).toBe(true);
    // The throwaway copy is gone once the slice is over.
    expect(seen.workDir).not.toBe("");
    expect(existsSync(seen.workDir)).toBe(false);
  });

  it("claims nothing when it stops at its turn limit, even with a result file written", async () => {
    const step = (i: number) => (p: { workDir: string; resultPath: string }) => ({
      content: [
        writeFile(join(p.workDir, `step-${i}.txt`), `${i}\n`),
        ...(i === 0
          ? [writeFile(p.resultPath, claims({ todo: PARSER, finishedTodo: true, allDone: true }))]
          : []),
      ],
    });
    const { outcome, tree, model } = await claudeSlice([0, 1, 2, 3, 4, 5].map(step), {
      limits: { maxTurns: 2, timeoutMs: 60_000 },
    });
    expect(model.turnsServed()).toBe(2);
    expect(outcome).toMatchObject({ died: true, finishedTodo: false, allDone: false, todo: null });
    expect(outcome.summary).toMatch(
      /claude claimed nothing: claude stopped at its turn limit \(2 turns\)/,
    );
    // What it wrote before the limit stays, as a killed agent's writes do.
    expect(outcome.wroteFiles).toContain("step-0.txt");
    expect(tree.read("step-0.txt")).toBe("0\n");
    expect(outcome.tokens).toBeGreaterThan(0);
  });

  it("claims nothing without a result file, but keeps the files it wrote", async () => {
    const { outcome, tree } = await claudeSlice([
      (p) => ({ content: [writeFile(join(p.workDir, "src/parse.js"), "x\n")] }),
    ]);
    expect(outcome).toMatchObject({
      died: true,
      finishedTodo: false,
      proposedTodos: [],
      wroteFiles: ["src/parse.js"],
      summary: "claude claimed nothing: it wrote no result file",
    });
    expect(tree.read("src/parse.js")).toBe("x\n");
  });

  it("claims nothing when its result file does not match the schema", async () => {
    const { outcome } = await claudeSlice([
      (p) => ({
        content: [
          writeFile(p.resultPath, claims({ todo: PARSER, finishedTodo: "yes", allDone: false })),
        ],
      }),
    ]);
    expect(outcome.died).toBe(true);
    expect(outcome.finishedTodo).toBe(false);
    expect(outcome.summary).toMatch(/its result file is malformed: .*finishedTodo/s);
  });

  it("claims nothing when the CLI reports an API error, and says what it said", async () => {
    // The API refusing the request outright (a 400 is not retried): claude ends with is_error.
    const server = createServer((req, res) => {
      req.resume();
      req.on("end", () => {
        if (req.method !== "POST") return void res.writeHead(200).end();
        res.writeHead(400, { "content-type": "application/json" }).end(
          JSON.stringify({
            type: "error",
            error: { type: "invalid_request_error", message: "model not found: scripted" },
          }),
        );
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const address = server.address();
    if (!address || typeof address === "string") throw new Error("no port");
    try {
      const agent = realModelAgent(
        realModelSetup("claude", {
          ANTHROPIC_API_KEY: KEY,
          ANTHROPIC_BASE_URL: `http://127.0.0.1:${address.port}`,
        }),
        LIMITS,
      );
      const tree = memoryTree([["README.md", "# x\n"]]);
      const outcome = await agent(inputFor(tree, `## Your todo: ${PARSER}\n`));
      expect(outcome).toMatchObject({ died: true, finishedTodo: false, wroteFiles: [], tokens: 0 });
      expect(outcome.summary).toMatch(
        /^claude claimed nothing: claude reported an error \(.*exit code 1\)/,
      );
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
  });

  it("stops a CLI that runs past its time limit", async () => {
    const started = Date.now();
    const { outcome } = await claudeSlice(
      [
        (p) => ({
          content: [
            writeFile(p.resultPath, claims({ todo: PARSER, finishedTodo: true, allDone: false })),
          ],
          stallMs: 60_000,
        }),
      ],
      { limits: { maxTurns: 10, timeoutMs: 4_000 } },
    );
    expect(outcome).toMatchObject({ died: true, finishedTodo: false });
    expect(outcome.summary).toBe(
      "claude claimed nothing: claude was stopped: it ran past its 4 s limit",
    );
    expect(Date.now() - started).toBeLessThan(30_000);
  });
});
