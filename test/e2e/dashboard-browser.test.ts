import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Harness } from "../support/app-harness.ts";
import { CHROMIUM, CHROMIUM_ARGS, HAVE_CHROMIUM } from "../support/chromium.ts";
import { botComments, goal, openTestGate, startGoal } from "../support/goal-steps.ts";
import { startDashboardHarness } from "./dashboard-steps.ts";

if (!HAVE_CHROMIUM) {
  console.warn(
    `\n*** dashboard-browser: SKIPPED — ${CHROMIUM} is absent. Install Debian's chromium (apt-get install -y chromium; .ci/run does) to run the browser test. ***\n`,
  );
}

/**
 * Scenario: a person opens the demo dashboard in a real browser while a goal waits on a gate,
 * clicks Approve, and the issue shows the owner's command and the app's receipt.
 */
describe.skipIf(!HAVE_CHROMIUM)("e2e: dashboard in a browser (Debian chromium)", () => {
  let h: Harness;
  let number: number;
  let goalId: string;
  let profile: string;
  beforeAll(async () => {
    h = await startDashboardHarness("demo");
    ({ number, goalId } = await startGoal(h, "alice", "Ship the widget cache"));
    await openTestGate(h, goalId, { question: "May I deploy to staging?", scopes: ["deploy"] });
    profile = mkdtempSync(join(tmpdir(), "loopx-chromium-"));
  });
  afterAll(async () => {
    await h.close();
    rmSync(profile, { recursive: true, force: true });
  });

  it("clicking Approve approves the gate through a comment, with a receipt; a screenshot is saved", async () => {
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_ARGS,
    });
    const shot = join(profile, "..", `loopx-dashboard-${process.pid}.png`);
    try {
      const page = await context.newPage();
      await page.goto(`${h.appUrl}/loopx`);
      expect(await page.textContent("body")).toContain("May I deploy to staging?");
      await Promise.all([
        page.waitForURL(/notice=/),
        page.getByRole("button", { name: "Approve G1" }).click(),
      ]);
      expect(await page.textContent("p.notice")).toContain("/loopx approve G1");
      await h.settle();
      expect((await goal(h, goalId)).gates[0]).toMatchObject({
        status: "approved",
        resolvedBy: "alice",
      });
      const keys = (await botComments(h, number)).map((c) => c.key);
      expect(keys).toContain("receipt:gate:G1:approved");

      await page.goto(`${h.appUrl}/loopx/goals/${goalId}`);
      expect(await page.textContent("body")).toContain("gate.approved");
      await page.screenshot({ path: shot, fullPage: true });
      const png = readFileSync(shot);
      expect(png.length).toBeGreaterThan(1000);
      expect(png.subarray(0, 8)).toEqual(
        Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      );
      console.info(`dashboard screenshot: ${shot}`);
    } finally {
      await context.close();
    }
  }, 60_000);
});
