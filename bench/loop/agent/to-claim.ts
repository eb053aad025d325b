/**
 * The agent's outcome as the result file LoopX's shell harness reads from $LOOPX_RESULT.
 * The shape mirrors packages/harness/src/agent-claim.ts (and the reporting section of
 * slice-prompt.ts); it is copied rather than imported because the agent must not depend on
 * the App or the kernel. It is a claim: LoopX decides progress from the tree and validation.
 */
import { NOTES_PATH, oneLine } from "./agent-notes.ts";
import type { AgentOutcome, Skill } from "./agent-types.ts";
import { skillTodos } from "./skill-plan.ts";

type Continuation =
  | { kind: "no_followup"; reason: string }
  | { kind: "successor"; title: string; detail: string; requiredScopes: string[] }
  | { kind: "goal_active" };

interface ProposedTodo {
  title: string;
  detail: string;
  requiredScopes: string[];
  paths: string[];
  /** The todo this one builds on (see `chained`). */
  after: string | null;
}

export interface LoopxResult {
  outcome: "progress" | "completed" | "no_change" | "failed";
  handoff: { done: string; next: string; questions: string[] };
  evidence: { kind: "note"; summary: string }[];
  continuation: Continuation | null;
  proposedTodos: ProposedTodo[];
  gateRequests: never[];
  revisions: null;
  job: null;
}

export function toLoopxResult(outcome: AgentOutcome, skill: Skill): LoopxResult {
  const todos = skillTodos(skill);
  const proposal = (title: string, detail = ""): ProposedTodo => {
    const todo = todos.get(oneLine(title));
    // Every slice appends to NOTES.md, the agent's memory on its branch: it declares it too.
    const paths = todo
      ? [...pathsOf(todo.files, todo.reviewFixes), skill.notesPath ?? NOTES_PATH]
      : [];
    return {
      title: clamp(title, 256),
      detail: clamp(detail, 2000),
      requiredScopes: [],
      paths,
      after: null,
    };
  };
  const why = (title: string) =>
    skill.discoveries.find((d) => oneLine(d.todo.title) === oneLine(title))?.why ?? "";
  const result: LoopxResult = {
    outcome: "no_change",
    handoff: { done: clamp(outcome.summary || "nothing", 1500), next: "", questions: [] },
    evidence:
      outcome.wroteFiles.length > 0
        ? [{ kind: "note", summary: clamp(`wrote ${outcome.wroteFiles.join(", ")}`, 500) }]
        : [],
    continuation: null,
    proposedTodos: [],
    gateRequests: [],
    revisions: null,
    job: null,
  };
  result.handoff.questions = outcome.questions.slice(0, 10).map((q) => clamp(q, 500));

  if (outcome.todo === null && !outcome.allDone && outcome.proposedTodos.length > 0) {
    // A planning slice: its todos are its whole result, and the goal goes on. A slice that
    // worked on nothing and proposes nothing (a confused one) changed nothing, and says so.
    result.outcome = "completed";
    result.continuation = { kind: "goal_active" };
    result.proposedTodos = chained(outcome.proposedTodos.slice(0, 10).map((t) => proposal(t)));
    result.handoff.next = "work the proposed todos in order";
  } else if (outcome.finishedTodo) {
    const [successor, ...more] = outcome.proposedTodos;
    result.outcome = "completed";
    result.continuation = successor
      ? {
          kind: "successor",
          title: clamp(successor, 256),
          detail: clamp(why(successor), 2000),
          requiredScopes: [],
        }
      : { kind: "no_followup", reason: `${clamp(outcome.todo ?? "the todo", 200)} is finished` };
    result.proposedTodos = chained(
      more.slice(0, 10).map((t) => proposal(t, why(t))),
      outcome.todo,
    );
    result.handoff.next = successor ? `work on ${successor}` : "wait for checks and review";
  } else if (outcome.allDone) {
    result.outcome = "completed";
    result.continuation = { kind: "no_followup", reason: "every todo in NOTES.md is done" };
    result.handoff.next = "nothing: the objective is done";
  } else if (outcome.progressed || outcome.wroteFiles.length > 0) {
    result.outcome = "progress";
    result.handoff.next = `continue ${outcome.todo ?? "the objective"} from NOTES.md`;
  } else {
    result.handoff.next = `try ${outcome.todo ?? "the objective"} again`;
  }
  return result;
}

/**
 * A plan in work order says what builds on what, as this agent knows it: its skill is
 * cumulative (each todo's files were written on top of the todos before it), so a todo builds
 * on the nearest earlier one working in the same part of the tree (a top-level path in
 * common: `src/bbox.mjs` needs what `src/polygon.mjs` became). NOTES.md is in every todo's
 * paths, so that is the one before: two branches that both append to it from the same main
 * conflict as soon as one merges, and this agent cannot merge. The first builds on `first`
 * when given (the todo just finished, whose discoveries these are).
 */
function chained(plan: ProposedTodo[], first: string | null = null): ProposedTodo[] {
  const areas = (t: ProposedTodo) => new Set(t.paths.map((p) => p.split("/")[0]));
  return plan.map((todo, i) => {
    const mine = areas(todo);
    const earlier = plan
      .slice(0, i)
      .reverse()
      .find((p) => [...areas(p)].some((a) => mine.has(a)));
    const before = earlier?.title ?? (i === 0 ? first : null);
    return before ? { ...todo, after: clamp(before, 256) } : todo;
  });
}

function pathsOf(files: Record<string, string>, fixes: Record<string, string>[]): Set<string> {
  const paths = new Set(Object.keys(files));
  for (const fix of fixes) for (const p of Object.keys(fix)) paths.add(p);
  return new Set([...paths].sort());
}

function clamp(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
