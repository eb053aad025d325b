import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { readKey } from "@loopx/github";
import { dbOf, rowsOf, sql } from "@loopx/store/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { HAVE_CHROMIUM, launchChromium } from "../support/chromium.ts";
import { firstPull } from "../support/pr-ticks.ts";
import { startTickHarness, type TickHarness } from "../support/tick-api-harness.ts";

const ARTIFACTS = resolve(import.meta.dirname, "../../.loopx/test-artifacts");
/** A phone's viewport in CSS pixels (an iPhone 12–15 in portrait). */
const PHONE = { width: 390, height: 844 };

/** What the tick pushes: two new files, three lines in all. */
const FILES = {
  "src/layout.ts": "export const cache = 1;\n",
  "src/cache.ts": "export const hits = 0;\nexport const misses = 0;\n",
};
const LINES = Object.values(FILES).reduce((n, text) => n + text.split("\n").length - 1, 0);

/**
 * Scenario: a tick's PR goes green and its merge gate asks the owner. The gate's comment says
 * what an approval covers (the PR at its head, GitHub's counts, CI on that head, the files);
 * in a real browser on a phone-sized screen the owner opens the goal, clicks Approve, sees the
 * same preview, confirms that head, and the gate is approved for it, with a receipt naming it.
 * No page needs sideways scrolling. A confirmation of a head the PR has since left is refused
 * and posts nothing. Screenshots are kept under .loopx/test-artifacts/.
 */
describe.skipIf(!HAVE_CHROMIUM)(
  "e2e: a merge gate's preview, confirmed on the dashboard from a phone",
  () => {
    let h: TickHarness;
    let profile: string;
    beforeAll(async () => {
      h = await startTickHarness({ demoDashboard: true });
      profile = mkdtempSync(join(tmpdir(), "loopx-chromium-"));
      mkdirSync(ARTIFACTS, { recursive: true });
    });
    afterAll(async () => {
      await h.close();
      rmSync(profile, { recursive: true, force: true });
    });

    it("the comment and the dashboard preview the head; confirming approves that head only", async () => {
      h.sandbox.ci.rule = () => "success";
      const { goal, tick, pr } = await firstPull(h, "Speed up rendering", ["Cache layout"], FILES);
      const issue = goal.goal.issue.number;
      const state = await h.store.loadGoal(goal.goal.id);
      const gate = state?.gates.find((g) => g.scopes.includes("merge"));
      if (!gate) throw new Error("the green PR opened no merge gate");
      const head = tick.sha.slice(0, 12);
      const covers = `#${pr.number} at ${head} · ${Object.keys(FILES).length} files, +${LINES} −0 · CI: every required check passed (ci)`;

      // The gate's comment on the issue: the same line, and each file by name.
      const asked = h.sandbox
        .issue("acme/widgets", issue)
        .comments_list.map((c) => String(c.body ?? ""))
        .find((body) => readKey(body) === `gate:${gate.key}:opened`);
      expect(asked).toContain(`**What an approval covers:** ${covers}`);
      for (const path of Object.keys(FILES)) expect(asked).toContain(`\` ${path} \` added, +`);

      // The owner decides from a phone: no page may need sideways scrolling there.
      const context = await launchChromium(profile, PHONE);
      // Evaluated in the page: how far the document is wider than the screen.
      const sideways = async () =>
        z.number().parse(await page.evaluate("document.documentElement.scrollWidth - innerWidth"));
      const page = await context.newPage();
      try {
        await page.goto(`${h.apiUrl}/loopx/goals/${goal.goal.id}`);
        expect(await page.textContent("body")).toContain(covers);
        expect(await sideways()).toBeLessThanOrEqual(0);
        await page.screenshot({
          path: join(ARTIFACTS, "gate-preview-goal-phone.png"),
          fullPage: true,
        });
        await page.goto(`${h.apiUrl}/loopx`);
        await Promise.all([
          page.waitForURL(/\/loopx\/gates$/),
          page.getByRole("button", { name: `Approve ${gate.key}` }).click(),
        ]);
        expect(await page.textContent("section.confirm .preview")).toBe(covers);
        expect(await page.getAttribute("section.confirm a", "href")).toBe(
          `${h.sandbox.url}/acme/widgets/pull/${pr.number}/files`,
        );
        expect(await sideways()).toBeLessThanOrEqual(0);
        await page.screenshot({
          path: join(ARTIFACTS, "gate-preview-confirm.png"),
          fullPage: true,
        });
        // Nothing is posted before the confirmation.
        expect(
          (await h.store.loadGoal(goal.goal.id))?.gates.find((g) => g.key === gate.key)?.status,
        ).toBe("open");

        await Promise.all([
          page.waitForURL(/notice=/),
          page.getByRole("button", { name: `Confirm: approve ${gate.key} at ${head}` }).click(),
        ]);
        await h.settle();
        const approved = (await h.store.loadGoal(goal.goal.id))?.gates.find(
          (g) => g.key === gate.key,
        );
        expect([approved?.status, approved?.resolvedBy, approved?.pr?.headSha]).toEqual([
          "approved",
          "alice",
          tick.sha,
        ]);
        await page.goto(`${h.apiUrl}/loopx/goals/${goal.goal.id}`);
        expect(await page.textContent("body")).toContain(
          `alice approved ${gate.key} (merge) for head ${tick.sha.slice(0, 7)}`,
        );
        await page.screenshot({
          path: join(ARTIFACTS, "gate-preview-approved.png"),
          fullPage: true,
        });
      } finally {
        await context.close();
      }

      // A push reopens the gate on a new head; a confirmation of the old head is refused.
      const moved = h.sandbox.push(
        "acme/widgets",
        tick.branch,
        { "src/layout.ts": "2\n" },
        "alice",
      );
      await h.sandbox.idle();
      await h.settle();
      const overview = await (await fetch(`${h.apiUrl}/loopx`)).text();
      const csrf = /name="csrf" value="([^"]+)"/.exec(overview)?.[1] ?? "";
      const comments = () => h.sandbox.issue("acme/widgets", issue).comments_list.length;
      const before = comments();
      const stale = await fetch(`${h.apiUrl}/loopx/gates`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          csrf,
          goal: goal.goal.id,
          gate: gate.key,
          decision: "approve",
          head: tick.sha,
        }),
      });
      expect(stale.status).toBe(409);
      expect(await stale.text()).toContain(`now asks about ${moved.slice(0, 12)}`);
      await h.settle();
      expect(comments()).toBe(before);
      const reopened = (await h.store.loadGoal(goal.goal.id))?.gates.find(
        (g) => g.key === gate.key,
      );
      expect([reopened?.status, reopened?.pr?.headSha]).toEqual(["open", moved]);
      const approvals = rowsOf(
        await dbOf(h.store).execute(
          sql`SELECT count(*) AS n FROM events WHERE goal_id = ${goal.goal.id} AND type = 'gate.approved'`,
        ),
      ).map((r) => z.object({ n: z.coerce.number() }).parse(r).n);
      expect(approvals).toEqual([1]);
    }, 120_000);
  },
);
