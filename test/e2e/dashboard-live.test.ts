import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import type { Harness } from "../support/app-harness.ts";
import { HAVE_CHROMIUM, launchChromium, pageUntil, pageValue } from "../support/chromium.ts";
import { startGoal } from "../support/goal-steps.ts";
import { recordSlice, startDashboardHarness } from "./dashboard-steps.ts";

const ARTIFACTS = resolve(import.meta.dirname, "../../.loopx/test-artifacts");

/**
 * Scenario: a person keeps a goal's dashboard page open while its ticks land. The page takes
 * each change as it commits (server-sent events), without a reload, and marks the new row.
 * They close it; two more slices land; when they come back the page says how many things
 * changed since their last visit and marks exactly those. A goal they may not see has no
 * event stream either.
 */
describe.skipIf(!HAVE_CHROMIUM)("e2e: the goal page updates live and says what changed", () => {
  let h: Harness;
  let goalId: string;
  let profile: string;
  beforeAll(async () => {
    h = await startDashboardHarness("demo");
    ({ goalId } = await startGoal(h, "alice", "Ship the widget cache"));
    await recordSlice(h, goalId, { summary: "profiled the renderer", done: "profiled", usd: 0.25 });
    profile = mkdtempSync(join(tmpdir(), "loopx-chromium-"));
    mkdirSync(ARTIFACTS, { recursive: true });
  });
  afterAll(async () => {
    await h.close();
    rmSync(profile, { recursive: true, force: true });
  });

  it("a landing slice appears without a reload; a return visit marks what is new", async () => {
    const context = await launchChromium(profile);
    const url = `${h.appUrl}/loopx/goals/${goalId}`;
    const newRows = (page: Page) =>
      pageValue(
        page,
        `[...document.querySelectorAll("#goal tr.new")].map((r) => r.textContent)`,
        z.array(z.string()),
      );
    try {
      let page = await context.newPage();
      await page.goto(url);
      await page.waitForSelector("body[data-live=open]");
      // A first visit has nothing to compare with.
      expect(await page.textContent("#since")).toBe("");
      expect(await newRows(page)).toEqual([]);
      // Set in this very document: a reload would lose it.
      await page.evaluate("window.loadedOnce = 'yes'");

      await recordSlice(h, goalId, { summary: "cache added", done: "cached", usd: 0.5 });
      await pageUntil(page, "document.body.textContent.includes('cache added')");
      expect(await pageValue(page, "window.loadedOnce", z.string())).toBe("yes");
      const live = await newRows(page);
      expect(live.filter((r) => r.includes("cache added"))).toHaveLength(1);
      expect(live.some((r) => r.includes("profiled the renderer"))).toBe(false);
      await page.screenshot({ path: join(ARTIFACTS, "dashboard-live.png"), fullPage: true });
      await page.close();

      // Away: two slices land. Back: exactly those are new.
      await recordSlice(h, goalId, { summary: "cache warmed", done: "warmed", usd: 0.1 });
      await recordSlice(h, goalId, { summary: "hit rate logged", done: "logged", usd: 0.1 });
      page = await context.newPage();
      await page.goto(url);
      const marked = await newRows(page);
      const mentions = (text: string) => marked.filter((r) => r.includes(text)).length;
      expect([mentions("cache warmed"), mentions("hit rate logged")]).toEqual([1, 1]);
      expect(mentions("cache added") + mentions("profiled the renderer")).toBe(0);
      expect(await page.textContent("#since")).toBe(
        `${marked.length} changes since your last visit, marked new.`,
      );
      await page.screenshot({
        path: join(ARTIFACTS, "dashboard-since-last-visit.png"),
        fullPage: true,
      });
    } finally {
      await context.close();
    }

    // No stream for a goal that does not exist (nor one the person may not see: the same 404).
    const missing = await fetch(
      `${h.appUrl}/loopx/goals/00000000-0000-4000-8000-000000000000/live`,
    );
    expect(missing.status).toBe(404);
  }, 90_000);
});
