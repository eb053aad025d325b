/**
 * `bench:loop --real-model` refuses what it cannot run before any cell runs: an unknown
 * model, a missing key, an endpoint that is not a URL, fewer than five trials, and --trials
 * without a real model. Each refusal names what to set.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { realModelFlags } from "../../bench/loop/real-model-flags.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const CLAUDE = { ANTHROPIC_API_KEY: "sk-ant-x" };

describe("realModelFlags", () => {
  it("is null for the scripted agent's run", () => {
    expect(realModelFlags(["--quick"], CLAUDE)).toBeNull();
  });

  it("runs five trials unless told more, with the installed CLI and only its key and endpoint", () => {
    const run = realModelFlags(["--real-model", "claude", "--tasks", "csv-quoting"], {
      ...CLAUDE,
      ANTHROPIC_BASE_URL: "http://127.0.0.1:9",
      GITHUB_TOKEN: "not for the model",
    });
    expect(run?.trials).toBe(5);
    expect(run?.setup.name).toBe("claude");
    expect(run?.setup.bin).toBe(join(ROOT, "node_modules/.bin/claude"));
    expect(existsSync(run?.setup.bin ?? "")).toBe(true);
    expect(run?.setup.env).toEqual({
      ANTHROPIC_API_KEY: "sk-ant-x",
      ANTHROPIC_BASE_URL: "http://127.0.0.1:9",
    });
    expect(realModelFlags(["--real-model", "claude", "--trials", "8"], CLAUDE)?.trials).toBe(8);
  });

  it("points codex at OpenAI's Responses API, or at OPENAI_BASE_URL", () => {
    const plain = realModelFlags(["--real-model", "codex"], { OPENAI_API_KEY: "sk-o" });
    expect(plain?.setup).toMatchObject({
      name: "codex",
      env: { OPENAI_API_KEY: "sk-o" },
      responsesUrl: "https://api.openai.com/v1",
    });
    const proxied = realModelFlags(["--real-model", "codex"], {
      OPENAI_API_KEY: "sk-o",
      OPENAI_BASE_URL: "http://127.0.0.1:8080/v1/",
    });
    expect(proxied?.setup.responsesUrl).toBe("http://127.0.0.1:8080/v1");
  });

  it("names the variable to set when the key is missing", () => {
    expect(() => realModelFlags(["--real-model", "claude"], {})).toThrow(
      /--real-model claude needs ANTHROPIC_API_KEY: set it to an Anthropic API key.*no cell was run/,
    );
    expect(() => realModelFlags(["--real-model", "codex"], CLAUDE)).toThrow(
      /--real-model codex needs OPENAI_API_KEY: set it to an OpenAI API key/,
    );
  });

  it("refuses an endpoint that is not a URL, naming it", () => {
    expect(() =>
      realModelFlags(["--real-model", "claude"], { ...CLAUDE, ANTHROPIC_BASE_URL: "localhost:9" }),
    ).toThrow(/ANTHROPIC_BASE_URL is "localhost:9", not an http\(s\) URL/);
  });

  it("takes claude or codex and nothing else", () => {
    expect(() => realModelFlags(["--real-model", "gpt-5"], CLAUDE)).toThrow(
      /--real-model takes the CLI that runs the model, claude or codex, not "gpt-5"/,
    );
    expect(() => realModelFlags(["--real-model", "--quick"], CLAUDE)).toThrow(/claude or codex$/);
  });

  it("refuses fewer than five trials, and a count that is not one", () => {
    expect(() => realModelFlags(["--real-model", "claude", "--trials", "3"], CLAUDE)).toThrow(
      /--trials 3 is too few: .*give --trials 5 or more/,
    );
    expect(() => realModelFlags(["--real-model", "claude", "--trials", "five"], CLAUDE)).toThrow(
      /--trials takes a whole number of trials per cell, at least 5, not "five"/,
    );
  });

  it("refuses --trials without --real-model: the scripted agent repeats itself exactly", () => {
    expect(() => realModelFlags(["--trials", "5"], CLAUDE)).toThrow(
      /--trials applies to --real-model runs only/,
    );
  });
});

describe("npm run bench:loop -- --real-model", () => {
  it("exits 2 with the variable to set, before any cell runs, when the key is missing", () => {
    const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME };
    const run = spawnSync(
      join(ROOT, "node_modules/.bin/tsx"),
      ["bench/loop/run-loop.ts", "--real-model", "claude", "--tasks", "csv-quoting"],
      { cwd: ROOT, env, encoding: "utf8", timeout: 60_000 },
    );
    expect(run.status).toBe(2);
    expect(run.stderr.trim()).toMatch(/^bench:loop: --real-model claude needs ANTHROPIC_API_KEY/);
    // No table, no trial: nothing ran.
    expect(run.stdout).toBe("");
    expect(run.stderr).not.toContain("trial");
  });
});
