import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { shellAgentScript, sliceKindOf } from "../src/demo/agent-script.ts";
import { parseDemoArgs, UsageError } from "../src/demo/demo-options.ts";
import { CI_COMMAND, demoFiles, VALIDATION_COMMAND } from "../src/demo/demo-project.ts";

describe("npm run demo's options", () => {
  it("defaults to the claude CLI against the scripted model, asking the person", () => {
    expect(parseDemoArgs([])).toMatchObject({
      yes: false,
      fresh: false,
      harness: "claude-code",
      realModel: false,
    });
  });

  it("takes --yes, --fresh, --harness shell, --real-model and --port", () => {
    expect(
      parseDemoArgs(["--yes", "--fresh", "--harness=shell", "--real-model", "--port", "4321"]),
    ).toMatchObject({ yes: true, fresh: true, harness: "shell", realModel: true, port: 4321 });
  });

  it("refuses unknown options and harnesses with the usage", () => {
    expect(() => parseDemoArgs(["--yes", "--merge-it"])).toThrow(UsageError);
    expect(() => parseDemoArgs(["--harness", "codex"])).toThrow(UsageError);
    expect(() => parseDemoArgs(["--port"])).toThrow("--port needs a value");
  });
});

const brief = (kind: string) =>
  `# LoopX brief — acme/cart#1, tick #2\nObjective: x\n\n## Your todo: T2 (${kind}, attempt 1)\nFix it`;

/**
 * The scenario's premises, on the demo project itself: the scripted fix passes the tests
 * but fails lint (so CI fails on the PR), the repair makes CI pass, the review's change
 * keeps it passing. The shell harness's script is what runs here.
 */
describe("the demo's scripted slices on the demo project", () => {
  let dir = "";
  let script = "";
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "loopx-demo-script-"));
    for (const [path, text] of Object.entries(demoFiles("shell"))) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    script = join(dir, "..", `${dir.split("/").at(-1)}-agent.sh`);
    writeFileSync(script, shellAgentScript());
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
    rmSync(script, { force: true });
  });

  const slice = (kind: string) => {
    const md = join(dir, "..", `brief-${kind}.md`);
    const result = join(dir, "..", `result-${kind}.json`);
    writeFileSync(md, brief(kind));
    execFileSync("bash", [script], {
      cwd: dir,
      env: { ...process.env, LOOPX_BRIEF_MD: md, LOOPX_RESULT: result },
      stdio: "pipe",
    });
    const claim: unknown = JSON.parse(readFileSync(result, "utf8"));
    rmSync(md);
    rmSync(result);
    return claim;
  };
  const passes = (command: string) =>
    spawnSync("bash", ["-c", command], { cwd: dir, stdio: "pipe" }).status === 0;

  it("reads the todo kind from the brief", () => {
    expect(["task", "repair", "review", "plan"].map((k) => sliceKindOf(brief(k)))).toEqual([
      "task",
      "repair",
      "review",
      "other",
    ]);
  });

  it("the main branch's suite passes although the bug is there", () => {
    expect(passes(VALIDATION_COMMAND)).toBe(true);
  });

  it("task: fixed and tested, but lint fails → CI fails", () => {
    expect(slice("task")).toMatchObject({ outcome: "completed" });
    expect(passes(VALIDATION_COMMAND)).toBe(true);
    expect(passes(CI_COMMAND)).toBe(false);
  });

  it("repair: CI passes", () => {
    expect(slice("repair")).toMatchObject({ outcome: "completed" });
    expect(passes(CI_COMMAND)).toBe(true);
  });

  it("review: reduce() and a zero-quantity test; CI still passes", () => {
    expect(slice("review")).toMatchObject({ outcome: "completed" });
    expect(readFileSync(join(dir, "src/cart.js"), "utf8")).toContain("reduce(");
    expect(readFileSync(join(dir, "test/cart.test.js"), "utf8")).toContain("quantity 0");
    expect(passes(CI_COMMAND)).toBe(true);
  });
});
