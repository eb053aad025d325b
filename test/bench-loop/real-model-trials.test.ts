/**
 * `bench:loop --real-model` end to end on one cell, with the REAL `claude` CLI as the agent
 * of the oracle and LoopX arms: a scripted Anthropic server on loopback plays a model that
 * plans csv-quoting's todos and writes each todo's finished files, so every trial lands every
 * todo through the arms' own PRs, and the table reports the mean reward with its interval.
 */
import { join } from "node:path";
import { startScriptedAnthropic, text, writeFile } from "@loopx/sandbox/models";
import { describe, expect, it } from "vitest";
import { realModelAgent } from "../../bench/loop/agent/real-agent.ts";
import { realModelSetup } from "../../bench/loop/agent/real-model-setup.ts";
import { loopxArm } from "../../bench/loop/arms/loopx-arm.ts";
import { oracleArm } from "../../bench/loop/arms/oracle-arm.ts";
import { benchTrials, renderTrials } from "../../bench/loop/real-trials.ts";
import { loadTasks } from "../../bench/loop/tasks/load-tasks.ts";
import { pathsIn } from "./real-model-fixtures.ts";

const KEY = "sk-ant-trials-0123456789";

describe("bench:loop --real-model with the real claude", () => {
  it("lands csv-quoting in every trial of the oracle and LoopX arms and reports 100 %", async () => {
    const task = (await loadTasks()).find((t) => t.spec.id === "csv-quoting");
    if (!task) throw new Error("no csv-quoting task");
    const titles = task.todoOrder().map((k) => task.todo(k).title);
    let plans = 0;
    let works = 0;
    // The model: a planning slice proposes the task's todos; a todo's slice writes its files.
    const model = await startScriptedAnthropic({
      apiKey: KEY,
      turns: [
        (req) => {
          const { workDir, resultPath } = pathsIn(req.prompt);
          const heading = /^## Your todo: (.*)$/m.exec(req.prompt)?.[1] ?? "";
          const key = task
            .todoOrder()
            .find(
              (k) =>
                heading === task.todo(k).title || req.prompt.includes(`\n${task.todo(k).title}\n`),
            );
          if (/^plan\b|\(plan,/.test(heading) || key === undefined) {
            plans += 1;
            const result = {
              todo: null,
              finishedTodo: false,
              allDone: false,
              proposedTodos: titles,
            };
            return { content: [writeFile(resultPath, JSON.stringify(result))] };
          }
          works += 1;
          const title = task.todo(key).title;
          const files = [...task.overlay(key)].map(([p, c]) => writeFile(join(workDir, p), c));
          const result = {
            todo: title,
            finishedTodo: true,
            allDone: false,
            summary: `did ${title}`,
          };
          return { content: [...files, writeFile(resultPath, JSON.stringify(result))] };
        },
        { content: [text("Done.")] },
      ],
    });
    try {
      const agent = realModelAgent(
        realModelSetup("claude", { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: model.url }),
      );
      const progress: string[] = [];
      const cells = await benchTrials({
        tasks: [task],
        arms: [oracleArm(), loopxArm()],
        agent,
        // Two keep the test short; the command line refuses fewer than five (flags test).
        trials: 2,
        progress: (line) => progress.push(line),
      });
      expect(cells).toEqual([
        { cell: "csv-quoting · competent · none", arm: "oracle", rewards: [1, 1] },
        { cell: "csv-quoting · competent · none", arm: "loopx", rewards: [1, 1] },
      ]);
      // Every slice was the real CLI's: one plan and one slice per todo, per arm and trial.
      expect(plans).toBe(2 * 2);
      expect(works).toBeGreaterThanOrEqual(2 * 2 * titles.length);
      expect(progress).toContain("csv-quoting · loopx · trial 2/2: 3/3 landed");
      const table = renderTrials({ model: "claude", cells });
      expect(table).toContain("not written to bench/loop-results.md");
      expect(table).toContain(
        "| csv-quoting · competent · none | oracle | 2 | 100 % | 100 % – 100 % |",
      );
    } finally {
      await model.close();
    }
    // Two arms, two trials, a real CLI per slice: about 50 s on two shared cores.
  }, 240_000);
});
