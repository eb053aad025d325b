import { describe, expect, inject, it } from "vitest";
import { z } from "zod";
import { DEMO_REPO } from "../../packages/demo/src/demo-project.ts";
import type { IssueFixStep } from "../../packages/demo/src/scenario-types.ts";
import { useRealDemo } from "../support/real-demo.ts";

const serverUrl = inject("pgUrl");
const skipReason = serverUrl ? "" : inject("pgSkipReason");

const Thread = z
  .object({
    body: z.string().nullable(),
    comments_list: z.array(z.object({ body: z.string().nullable() }).loose()),
  })
  .loose();

/**
 * What a person reads is prose, not a dump. Each pattern names what leaked, so a failure
 * says where to look. Hidden markers (HTML comments) are not read by people and are dropped
 * first; so are the dashboard's script and styles, and what a collapsed block holds (raw
 * output and event data belong there, behind the toggle its summary names).
 */
const LEAKS: [string, RegExp][] = [
  ["raw TAP output", /TAP version \d+|^\s*# Subtest:|^\s*(?:not )?ok \d+ - /m],
  ["a raw JSON object", /\{\s*"[A-Za-z_]+"\s*:/],
  ["a kernel route", /\b(?:ask_human|over_budget|replan):/],
  [
    "a machinery state",
    /\b(?:in_progress|awaiting_pull_request|awaiting_job|blocked or deferred|no_followup)\b|\((?:ready|blocked|claimed|dropped)\)/,
  ],
  ["an undefined value", /\bundefined\b|\bnull\b|\[object Object\]/],
];

/** A collapsed block keeps its summary: the rest shows only when a person opens it. */
const collapsed = (text: string) =>
  text.replace(
    /<details[^>]*>\s*(<summary>[\s\S]*?<\/summary>)?[\s\S]*?<\/details>/g,
    (_all, summary: string | undefined) => summary ?? "",
  );
const visible = (markdown: string) => collapsed(markdown.replace(/<!--[\s\S]*?-->/g, ""));
const pageText = (html: string) =>
  collapsed(html)
    .replace(/<script[\s\S]*?<\/script>|<style[\s\S]*?<\/style>/g, "")
    .replace(/<[^>]+>/g, " ")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");

function leaksIn(where: string, text: string): string[] {
  return LEAKS.flatMap(([what, pattern]) => {
    const hit = pattern.exec(text);
    return hit
      ? [`${where}: ${what}: …${text.slice(Math.max(0, hit.index - 60), hit.index + 80)}…`]
      : [];
  });
}

/**
 * `npm run demo -- --yes` to the end; then everything a person would read — the goal issue
 * (its body and every comment), the pull request's thread, the dashboard's overview and the
 * goal's page — holds no raw TAP, JSON, kernel routes or machinery states.
 */
describe.skipIf(!serverUrl)(
  `e2e: what the demo shows people reads as prose${skipReason ? ` — skipped: ${skipReason}` : ""}`,
  () => {
    const demo = useRealDemo(serverUrl ?? "", "loopx-demo-readable-");

    it("no dump, route or machinery state on the issue, the PR or the dashboard", async () => {
      const found: string[] = [];
      let read = 0;
      const thread = (n: number) => Thread.parse(demo.stack().sandbox.issue(DEMO_REPO.fullName, n));
      const atTheEnd = async (facts: { goalId: string; issue: number; pr: number | null }) => {
        for (const [where, n] of [
          ["the goal issue", facts.issue],
          ["the pull request", facts.pr ?? 0],
        ] as const) {
          const t = thread(n);
          found.push(...leaksIn(`${where}'s body`, visible(t.body ?? "")));
          for (const [i, c] of t.comments_list.entries()) {
            found.push(...leaksIn(`${where}, comment ${i + 1}`, visible(c.body ?? "")));
            read += 1;
          }
        }
        const app = demo.stack().appUrl;
        for (const [where, url] of [
          ["the overview", `${app}/loopx`],
          ["the goal's page", `${app}/loopx/goals/${facts.goalId}`],
        ] as const) {
          const res = await fetch(url);
          expect(res.status, where).toBe(200);
          found.push(...leaksIn(where, pageText(await res.text())));
        }
      };
      const quiet = async () => {};
      const checks: Record<IssueFixStep, (f: Parameters<typeof atTheEnd>[0]) => Promise<void>> = {
        "goal-started": quiet,
        "todo-added": quiet,
        "pr-opened": quiet,
        "ci-failed": quiet,
        repaired: quiet,
        "changes-requested": quiet,
        "review-addressed": quiet,
        approved: quiet,
        done: atTheEnd,
      };
      const { result } = await demo.run({}, checks);
      expect(result.state?.goal.status).toBe("done");
      // The scan read the threads the demo wrote (a handful of comments at least).
      expect(read).toBeGreaterThan(5);
      expect(found).toEqual([]);
    }, 300_000);
  },
);
