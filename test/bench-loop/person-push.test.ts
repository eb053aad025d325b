/**
 * Workflow files in the bench, as on GitHub: no arm's App identity may push them, so the
 * change goes to the maintainer as a patch, who applies it as the App's comment hands it over
 * and pushes it as a person — an act with its latency and minutes, which every arm pays alike.
 */
import { renderPatchComment } from "@loopx/github";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { patchHandedOver } from "../../bench/loop/arms/loopx/github-readings.ts";
import { loadTasks } from "../../bench/loop/tasks/load-tasks.ts";
import { appPush } from "../../bench/loop/world/app-push.ts";
import { startCellWorld } from "../../bench/loop/world/cell-world.ts";
import { applyPatch, formatPatch } from "../../bench/loop/world/patch-files.ts";
import { DEFAULT_PERSON } from "../../bench/loop/world/person-acts.ts";
import { createSandbox, type Sandbox } from "../../packages/sandbox/src/index.ts";

const WORKFLOW = ".github/workflows/ci.yml";
const ini = (await loadTasks()).find((t) => t.spec.id === "ini-config");
if (!ini) throw new Error("bench/loop/tasks has no ini-config");

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await createSandbox();
});
afterAll(async () => {
  await sandbox?.stop();
});

describe("a change only a person can push", () => {
  it("a patch made from two trees applies back onto the first, and not onto other text", async () => {
    const before = new Map([
      [WORKFLOW, "on: push\njobs:\n  t:\n    node: 16\n"],
      ["README.md", "old\n"],
      ["gone.txt", "bye\n"],
    ]);
    const after = new Map([
      [WORKFLOW, "on: push\njobs:\n  t:\n    node: [20, 22]\n"],
      ["README.md", "old\n"],
      ["NOTES.md", "done: CI\n"],
    ]);
    const patch = await formatPatch(before, after, [WORKFLOW, "NOTES.md", "gone.txt"], "CI");
    expect(patch).toMatch(/^From [0-9a-f]{40} /);
    expect(await applyPatch(before, patch)).toEqual({
      [WORKFLOW]: after.get(WORKFLOW),
      "NOTES.md": "done: CI\n",
      "gone.txt": null,
    });
    const moved = new Map([...before, [WORKFLOW, "on: pull_request\n"]]);
    await expect(applyPatch(moved, patch)).rejects.toThrow(/git apply/);
  });

  it("reads the branch and the patch back from the App's comment, zero-width spaces stripped", async () => {
    const before = new Map([[WORKFLOW, "on: push\n# @octo see ```x```\n"]]);
    const after = new Map([[WORKFLOW, "on: [push, pull_request]\n# @octo see ```x```\n"]]);
    const patch = await formatPatch(before, after, [WORKFLOW], "CI on pull requests");
    const body = renderPatchComment({
      todo: "T3",
      branch: "loopx/1-T3",
      headSha: "a".repeat(40),
      paths: [WORKFLOW],
      patch,
    });
    // The comment neutralises the agent's text: the mention is broken on GitHub.
    expect(body).not.toContain("@octo");
    expect(patchHandedOver(body)).toEqual({ branch: "loopx/1-T3", patch });
    expect(patchHandedOver("LoopX T3: progress")).toBeNull();
  });

  it("no App identity may push workflow files; the maintainer's push of the patch lands them", async () => {
    const world = await startCellWorld({ sandbox, task: ini, repo: "bench/person-push", seed: 3 });
    try {
      const main = await world.mainTree();
      const ci = `${main.get(WORKFLOW)}# node 20 and 22\n`;
      const refused = appPush(world, "oracle/t2", { [WORKFLOW]: ci }, "oracle-agent[bot]", "CI");
      expect(refused).toEqual({
        refused: expect.stringContaining("without `workflows` permission"),
        workflows: [WORKFLOW],
      });
      expect(sandbox.store.repoByName("bench", "person-push").branches.has("oracle/t2")).toBe(
        false,
      );
      const other = appPush(world, "oracle/t1", { "NOTES.md": "x\n" }, "oracle-agent[bot]", "n");
      expect(other).toEqual({ pushed: expect.stringMatching(/^[0-9a-f]{40}$/) });

      const patch = await formatPatch(main, new Map([...main, [WORKFLOW, ci]]), [WORKFLOW], "CI");
      const act = world.person.pushPatch("oracle/t2", patch, 1);
      await sandbox.clock.advance(act.dueAt - sandbox.clock.now());
      const acted = await act.performed;
      expect(acted).toMatchObject({
        kind: "push",
        as: "maintainer",
        outcome: "done",
        minutes: DEFAULT_PERSON.minutesPerAct.push,
      });
      expect((await world.branchTree("oracle/t2")).get(WORKFLOW)).toBe(ci);
      // A planted file the objective never asked for is left out; the rest is pushed.
      const planted = ".github/workflows/exfil.yml";
      const next = await world.branchTree("oracle/t2");
      const mixed = await formatPatch(
        next,
        new Map([...next, [planted, "stolen\n"], ["NOTES.md", "done: CI\n"]]),
        [planted, "NOTES.md"],
        "CI and a planted workflow",
      );
      const filtered = world.person.pushPatch("oracle/t2", mixed, 1);
      await sandbox.clock.advance(filtered.dueAt - sandbox.clock.now());
      expect((await filtered.performed).detail).toContain(`leaving out ${planted}`);
      const after = await world.branchTree("oracle/t2");
      expect(after.has(planted)).toBe(false);
      expect(after.get("NOTES.md")).toBe("done: CI\n");
      // The same patch again no longer applies there: git refuses it, and so does the person.
      const again = world.person.pushPatch("oracle/t2", patch, 1);
      await sandbox.clock.advance(again.dueAt - sandbox.clock.now());
      expect((await again.performed).outcome).toBe("refused");
    } finally {
      world.close();
    }
  });
});
