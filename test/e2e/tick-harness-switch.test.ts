import {
  AWAITING_PULL_REQUEST,
  completeTodoByHuman,
  type GoalState,
  type HarnessName,
} from "@loopx/core";
import {
  bash,
  execCommand,
  isRecord,
  message,
  type ScriptedAnthropic,
  type ScriptedOpenAI,
  startScriptedAnthropic,
  startScriptedOpenAI,
  text,
  userTextOf,
  writeFile,
} from "@loopx/sandbox/models";
import { openStore, type Store } from "@loopx/store";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { resultPathIn } from "../../packages/harness/test/fixtures.ts";
import { promptsFrom } from "../support/claude-ticks.ts";
import { freshDatabase } from "../support/databases.ts";
import { startTickHarness, type TickHarness } from "../support/tick-api-harness.ts";
import { dispatchOneTick, finishRun, useTickWorkflow } from "../support/tick-workflow-runs.ts";

const serverUrl = inject("pgUrl");
const skipReason = serverUrl ? "" : inject("pgSkipReason");

const ANTHROPIC_KEY = "sk-ant-switch-0123456789abcdef";
const OPENAI_KEY = "sk-openai-switch-0123456789abcdef";

/** Each slice's work: one line of the catalogue, committed on its todo's branch. */
const work = (who: string) => `echo "- counted by ${who}" >> WIDGETS.md`;

/** What each harness's slice reports: it completes its todo, with a handoff and evidence. */
const claim = (who: string) => ({
  outcome: "completed",
  handoff: { done: `${who} counted its share`, next: `after ${who}: carry on`, questions: [] },
  evidence: [{ kind: "note", summary: `${who} found 3 widgets` }],
  continuation: { kind: "goal_active" },
});

/**
 * Scenario: a writer's goal with four todos starts on the shell harness; after each tick a
 * writer switches it (`/loopx harness …`, the way a user switches) to claude-code, then to
 * codex. Each tick runs through the real action on the sandbox's runner — the shell command,
 * the real `claude`, the real `codex` against scripted servers. Each later harness's prompt
 * (from the servers' request logs) carries the previous slice's handoff, the evidence so far
 * and the todos still open, and works the next todo: none is worked twice.
 */
describe.skipIf(!serverUrl)(
  `e2e: switching harness mid-goal keeps the goal${skipReason ? ` — skipped: ${skipReason}` : ""}`,
  () => {
    let db: Awaited<ReturnType<typeof freshDatabase>>;
    let store: Store;
    let h: TickHarness;
    let claude: ScriptedAnthropic;
    let codex: ScriptedOpenAI;
    beforeAll(async () => {
      db = await freshDatabase(serverUrl ?? "");
      store = await openStore({ databaseUrl: db.url });
      claude = await startScriptedAnthropic({
        turns: [
          (req) => ({
            content: [
              bash(work("claude")),
              writeFile(resultPathIn(req.prompt), JSON.stringify(claim("claude"))),
            ],
          }),
          { content: [text("Done.")] },
        ],
        apiKey: ANTHROPIC_KEY,
      });
      codex = await startScriptedOpenAI({
        model: "gpt-5.5",
        turns: [
          (req) => ({
            output: [
              execCommand(
                `${work("codex")} && printf '%s' '${JSON.stringify(claim("codex"))}' > ${resultPathIn(req.prompt)}`,
              ),
            ],
          }),
          { output: [message("Done.")] },
        ],
        apiKey: OPENAI_KEY,
      });
      h = await startTickHarness({ store });
      useTickWorkflow(h, {
        config: ["harness:", "  default: shell", "  allowedTools: [Write, Bash]", ""].join("\n"),
        vars: {
          LOOPX_SHELL_COMMAND: `${work("shell")} && printf '%s' '${JSON.stringify(claim("shell"))}' > "$LOOPX_RESULT"`,
          ANTHROPIC_BASE_URL: claude.url,
          OPENAI_BASE_URL: codex.url,
        },
        secrets: { ANTHROPIC_API_KEY: ANTHROPIC_KEY, OPENAI_API_KEY: OPENAI_KEY },
      });
    });
    afterAll(async () => {
      await h?.close();
      await claude?.close();
      await codex?.close();
      await store?.close();
      await db?.drop();
    });

    async function tick(issue: number): Promise<{ todo: string; harness: string }> {
      const done = await finishRun(h, (await dispatchOneTick(h, issue)).id, 120_000);
      expect(done.run.conclusion, done.logs).toBe("success");
      await h.settle();
      return {
        todo: done.jobs.ask?.outputs.todo ?? "",
        harness: done.jobs.ask?.outputs.harness ?? "",
      };
    }

    async function switchTo(issue: number, harness: HarnessName, goalId: string) {
      await h.as("alice").rest.issues.createComment({
        owner: "acme",
        repo: "widgets",
        issue_number: issue,
        body: `/loopx harness ${harness}`,
      });
      await h.settle();
      expect((await h.store.loadGoal(goalId))?.goal.harness).toBe(harness);
    }

    const load = async (id: string): Promise<GoalState> => {
      const s = await h.store.loadGoal(id);
      if (!s) throw new Error("no goal");
      return s;
    };

    /** The todo's state: worked once, its work waits for its pull request. */
    const finished = (state: GoalState, key: string) => {
      const t = state.todos.find((x) => x.key === key);
      return [t?.status, t?.blockedReason];
    };

    it("shell → claude-code → codex: each prompt carries the handoff, evidence and open todos; nothing is re-done", async () => {
      const started = await h.startGoal("Catalogue the widgets", [
        "Count the widgets",
        "Name the widgets",
        "Price the widgets",
        "Publish the catalogue",
        "Archive the old list",
      ]);
      const issue = started.goal.issue.number;
      const id = started.goal.id;
      const [t1, t2, t3, t4, t5] = [...started.todos].sort((a, b) => a.position - b.position);
      if (!t1 || !t2 || !t3 || !t4 || !t5) throw new Error("the goal lacks its five todos");
      // A writer did the last one by hand: done, it is neither worked nor listed as open.
      const byHand = await h.store.apply(id, (s, now) =>
        completeTodoByHuman(
          s,
          { todo: t5.key },
          {
            actor: { kind: "human", login: "alice", trusted: true },
            now,
            newId: () => crypto.randomUUID(),
          },
        ),
      );
      if (!byHand.ok) throw new Error(byHand.refusal.message);
      await h.settle();
      const waiting = ["blocked", AWAITING_PULL_REQUEST];

      expect(await tick(issue)).toEqual({ todo: t1.key, harness: "shell" });
      let state = await load(id);
      expect(finished(state, t1.key)).toEqual(waiting);
      const shellHandoff = state.handoffs.at(-1);

      await switchTo(issue, "claude-code", id);
      expect(await tick(issue)).toEqual({ todo: t2.key, harness: "claude-code" });
      const [claudePrompt = "", ...moreClaude] = promptsFrom(claude, 0);
      expect(moreClaude).toEqual([]);
      expect(claudePrompt).toContain(`## Your todo: ${t2.key}`);
      expect(claudePrompt).toContain(`Done: ${shellHandoff?.done}`);
      expect(claudePrompt).toContain(`Next: ${shellHandoff?.next}`);
      expect(claudePrompt).toContain("shell found 3 widgets");
      expect(claudePrompt).toContain(`- ${t1.key} (blocked): ${t1.title}`);
      for (const open of [t3, t4]) {
        expect(claudePrompt).toContain(`- ${open.key} (ready): ${open.title}`);
      }
      expect(claudePrompt).not.toContain(`- ${t5.key} (`);
      state = await load(id);
      expect(finished(state, t2.key)).toEqual(waiting);
      const claudeHandoff = state.handoffs.at(-1);

      await switchTo(issue, "codex", id);
      expect(await tick(issue)).toEqual({ todo: t3.key, harness: "codex" });
      const codexPrompts = codex.requests
        .filter((r) => r.path === "/v1/responses" && isRecord(r.body))
        .map((r) => (isRecord(r.body) ? userTextOf(r.body.input) : ""))
        .filter((p, i, all) => p !== "" && all.indexOf(p) === i);
      // One conversation: its later turns only add to the first prompt.
      const codexPrompt = codexPrompts[0] ?? "";
      expect(codexPrompts.every((p) => p.startsWith(codexPrompt))).toBe(true);
      expect(codexPrompt).toContain(`## Your todo: ${t3.key}`);
      expect(codexPrompt).toContain(`Done: ${claudeHandoff?.done}`);
      expect(codexPrompt).toContain(`Next: ${claudeHandoff?.next}`);
      expect(codexPrompt).toContain("claude found 3 widgets");
      expect(codexPrompt).toContain("shell found 3 widgets");
      for (const before of [t1, t2]) {
        expect(codexPrompt).toContain(`- ${before.key} (blocked): ${before.title}`);
      }
      expect(codexPrompt).toContain(`- ${t4.key} (ready): ${t4.title}`);
      expect(codexPrompt).not.toContain(`- ${t5.key} (`);

      // Each todo was worked once, by the harness the goal ran on then; the last one waits.
      state = await load(id);
      expect(
        [...state.ticks].sort((a, b) => a.number - b.number).map((t) => [t.todo, t.harness]),
      ).toEqual([
        [t1.key, "shell"],
        [t2.key, "claude-code"],
        [t3.key, "codex"],
      ]);
      expect(finished(state, t3.key)).toEqual(waiting);
      expect(finished(state, t4.key)).toEqual(["ready", null]);
      expect(finished(state, t5.key)[0]).toBe("done");
      // Each slice's work is on its own todo's branch.
      const repo = h.sandbox.store.repoByName("acme", "widgets");
      const git = h.sandbox.store.git(repo);
      for (const [t, who] of [
        [t1, "shell"],
        [t2, "claude"],
        [t3, "codex"],
      ] as const) {
        const head = repo.branches.get(`loopx/${issue}-${t.key}`) ?? "";
        expect(git.readFile(head, "WIDGETS.md")).toBe(`- counted by ${who}\n`);
      }
    }, 300_000);
  },
);
