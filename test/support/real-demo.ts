/**
 * `npm run demo -- --yes` run by a test on its own PostgreSQL database: every step the demo
 * reaches is checked by the test's own check for that step, and a step without one fails.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll } from "vitest";
import { DemoOptions } from "../../packages/demo/src/demo-options.ts";
import { type DemoResult, runDemo } from "../../packages/demo/src/main.ts";
import type { ScenarioFacts, StepName } from "../../packages/demo/src/scenario-types.ts";
import type { Stack } from "../../packages/demo/src/start-stack.ts";
import { freshDatabase } from "./databases.ts";

export interface RealDemo {
  /** The running stack (the store, the sandbox); throws before the demo started it. */
  stack(): Stack;
  /** Runs the demo unattended (`--plan` if asked), checking each step as it is reached. */
  run(
    options: { plan?: boolean },
    checks: Partial<Record<StepName, (facts: ScenarioFacts) => Promise<void>>>,
  ): Promise<{ result: DemoResult; seen: StepName[]; output: string }>;
}

/** Registers the file's database and scratch directory (beforeAll/afterAll) for one demo run. */
export function useRealDemo(serverUrl: string, scratch: string): RealDemo {
  let db: { url: string; drop(): Promise<void> } | undefined;
  let workDir = "";
  let stack: Stack | null = null;
  beforeAll(async () => {
    db = await freshDatabase(serverUrl);
    workDir = mkdtempSync(join(tmpdir(), scratch));
  });
  afterAll(async () => {
    await db?.drop();
    rmSync(workDir, { recursive: true, force: true });
  });
  return {
    stack() {
      if (!stack) throw new Error("no stack yet");
      return stack;
    },
    async run(options, checks) {
      const seen: StepName[] = [];
      const out: string[] = [];
      const result = await runDemo(
        DemoOptions.parse({
          yes: true,
          ...(options.plan ? { plan: true } : {}),
          databaseUrl: db?.url,
          settingsFile: join(workDir, "demo.env"),
        }),
        {
          print: (line) => out.push(line),
          log: { info: () => {}, warn: () => {}, error: (m) => out.push(`app error: ${m}`) },
          workDir,
          confirm: null,
          onStep: async (step, facts) => {
            seen.push(step);
            const check = checks[step];
            if (!check)
              throw new Error(`the demo reached "${step}", which this test does not check`);
            await check(facts);
          },
          onStart: (s) => {
            stack = s;
          },
        },
      ).catch((error: unknown) => {
        throw new Error(`${String(error)}\n--- demo output ---\n${out.join("\n")}`);
      });
      return { result, seen, output: out.join("\n") };
    },
  };
}
