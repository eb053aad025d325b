/**
 * The shared-file pair as `bench:loop` plays it: textkit-slug and textkit-wrap are two goals
 * filed on one repository, both changing src/text.mjs. LoopX runs them side by side, the
 * oracle one after the other; either way both goals' todos must land, each graded by its
 * own hidden tests on the one main, with no PR left unmerged.
 */
import { describe, expect, it } from "vitest";
import { loopxArm } from "../../bench/loop/arms/loopx-arm.ts";
import { oracleArm } from "../../bench/loop/arms/oracle-arm.ts";
import { cellName, cellOf, partnerOf, pickTasks, playCell } from "../../bench/loop/play-cell.ts";
import { loadTasks } from "../../bench/loop/tasks/load-tasks.ts";
import { startCellWorld } from "../../bench/loop/world/cell-world.ts";
import { createSandbox } from "../../packages/sandbox/src/index.ts";

async function pairCell() {
  const all = await loadTasks();
  const slug = all.find((t) => t.spec.id === "textkit-slug");
  if (!slug) throw new Error("no textkit-slug task");
  return { all, cell: { ...cellOf(slug), partner: partnerOf(slug, all) } };
}

describe("the shared-file pair", () => {
  it("is one cell of two goals, named for both", async () => {
    const { all, cell } = await pairCell();
    const picked = pickTasks(all, { quick: false }).map((t) => t.spec.id);
    expect(picked).toContain("textkit-slug");
    expect(picked).not.toContain("textkit-wrap");
    expect(cell.partner?.spec.id).toBe("textkit-wrap");
    expect(cellName(cell)).toBe("textkit-slug + textkit-wrap · competent · none");
  });

  it("refuses to pair tasks that do not start from the same files", async () => {
    const { all, cell } = await pairCell();
    const other = all.find((t) => t.spec.id === "csv-quoting");
    if (!other) throw new Error("no csv-quoting task");
    const sandbox = await createSandbox();
    try {
      await expect(
        startCellWorld({
          sandbox,
          task: cell.task,
          partner: other,
          repo: "bench/mismatch",
          seed: 1,
        }),
      ).rejects.toThrow(/start from different files: a pair shares one repository/);
      expect(() => sandbox.repoByFullName("bench/mismatch")).toThrow();
    } finally {
      await sandbox.stop();
    }
  });

  it.each([
    ["loopx", loopxArm()],
    ["oracle", oracleArm()],
  ])(
    "%s lands both goals' todos on the one main",
    async (_name, arm) => {
      const { cell } = await pairCell();
      const total = cell.task.todoOrder().length + (cell.partner?.todoOrder().length ?? 0);
      const metrics = await playCell(cell, arm);
      expect(metrics.total).toBe(total);
      expect(metrics.landed).toBe(total);
      expect(metrics.pullsUnmerged).toBe(0);
      expect(metrics.duplicateComments).toBe(0);
    },
    300_000,
  );
});
