import { randomUUID } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { addTodo } from "@loopx/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import type { Harness } from "../support/app-harness.ts";
import { HAVE_CHROMIUM, launchChromium } from "../support/chromium.ts";
import { comment, goal, openTestGate, startGoal } from "../support/goal-steps.ts";
import { startDashboardHarness } from "./dashboard-steps.ts";

const ARTIFACTS = resolve(import.meta.dirname, "../../.loopx/test-artifacts");

/**
 * Scenario: an owner plans a goal by comment (a todo needing the `deploy` scope among them),
 * an agent's todo waits for another to be done, and a gate holds `deploy`. On the goal page
 * the board shows the todos in the order LoopX works them, and each open one says what it
 * waits on as a link: "after T2" leads to T2's card, "needs G1" to the gate.
 */
describe.skipIf(!HAVE_CHROMIUM)("e2e: the goal page's board shows order and dependencies", () => {
  let h: Harness;
  let profile: string;
  beforeAll(async () => {
    h = await startDashboardHarness("demo");
    profile = mkdtempSync(join(tmpdir(), "loopx-chromium-"));
    mkdirSync(ARTIFACTS, { recursive: true });
  });
  afterAll(async () => {
    await h.close();
    rmSync(profile, { recursive: true, force: true });
  });

  it("cards in working order, each dependency a link to what it waits on", async () => {
    const { number, goalId } = await startGoal(h, "alice", "Ship the widget cache");
    await comment(h, "alice", number, "/loopx todo add Add the cache");
    await comment(h, "alice", number, "/loopx todo add Deploy to staging --needs deploy");
    const added = await h.store.apply(goalId, (s, now) =>
      addTodo(
        s,
        {
          title: "Document the cache",
          origin: "agent",
          resumeWhen: { kind: "todo_done", todo: "T1" },
        },
        { actor: { kind: "app" }, now, newId: randomUUID },
      ),
    );
    if (!added.ok) throw new Error(added.refusal.message);
    await openTestGate(h, goalId, { question: "May I deploy to staging?", scopes: ["deploy"] });
    const state = await goal(h, goalId);
    const keyOf = (title: string) => state.todos.find((t) => t.title === title)?.key ?? "";
    const [cache, deploy, docs] = ["Add the cache", "Deploy to staging", "Document the cache"].map(
      keyOf,
    );
    expect(cache).toBe("T1");
    // The order LoopX works them in is the todos' positions.
    const ordered = [...state.todos].sort((a, b) => a.position - b.position).map((t) => t.key);

    const context = await launchChromium(profile);
    try {
      const page = await context.newPage();
      await page.goto(`${h.appUrl}/loopx/goals/${goalId}`);
      const card = async (key: string) => (await page.textContent(`#todo-${key}`)) ?? "";
      for (const [i, key] of ordered.entries()) {
        expect(await card(key)).toMatch(new RegExp(`^${i + 1}\\. ${key} `));
      }
      expect(await card(docs ?? "")).toContain("after T1");
      expect(await card(deploy ?? "")).toContain("needs G1");
      expect(await card(cache ?? "")).not.toContain("after");

      await page.click(`#todo-${docs} a[href="#todo-T1"]`);
      const target = z
        .string()
        .parse(await page.evaluate("document.querySelector(':target')?.id ?? ''"));
      expect(target).toBe("todo-T1");
      await page.click(`#todo-${deploy} a[href="#gate-G1"]`);
      expect(
        z
          .string()
          .parse(await page.evaluate("document.querySelector(':target')?.textContent ?? ''")),
      ).toContain("May I deploy to staging?");
      await page.screenshot({ path: join(ARTIFACTS, "dashboard-board.png"), fullPage: true });
    } finally {
      await context.close();
    }
  }, 60_000);
});
