import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import type { Harness } from "../support/app-harness.ts";
import { HAVE_CHROMIUM, launchChromium, pageUntil, pageValue } from "../support/chromium.ts";
import { openTestGate, startGoal } from "../support/goal-steps.ts";
import { recordSlice, startDashboardHarness } from "./dashboard-steps.ts";

const ARTIFACTS = resolve(import.meta.dirname, "../../.loopx/test-artifacts");

/**
 * Scenario: the owner keeps the dashboard's overview open in a tab. A slice starts and a
 * gate opens on a goal: the overview shows the gate waiting for them, with its Approve
 * button, without a reload.
 */
describe.skipIf(!HAVE_CHROMIUM)("e2e: the overview updates live", () => {
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

  it("a gate that opens while the overview is open appears there, with its button", async () => {
    const { goalId } = await startGoal(h, "alice", "Ship the widget cache");
    const context = await launchChromium(profile);
    try {
      const page = await context.newPage();
      await page.goto(`${h.appUrl}/loopx`);
      await page.waitForSelector("body[data-live=open]");
      expect(await page.textContent("#overview")).toContain("No gate is open.");
      // Set in this very document: a reload would lose it.
      await page.evaluate("window.loadedOnce = 'yes'");

      await recordSlice(h, goalId, { summary: "cache added", done: "cached", usd: 0.5 });
      await openTestGate(h, goalId, {
        question: "May I publish the cache to the CDN?",
        scopes: ["deploy"],
      });
      await pageUntil(page, "document.body.textContent.includes('publish the cache to the CDN')");
      expect(await pageValue(page, "window.loadedOnce", z.string())).toBe("yes");
      expect(await page.getByRole("button", { name: /^Approve G\d+$/ }).count()).toBe(1);
      await page.screenshot({ path: join(ARTIFACTS, "dashboard-overview-live.png") });
    } finally {
      await context.close();
    }
  }, 90_000);
});
