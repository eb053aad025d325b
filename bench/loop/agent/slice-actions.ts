/**
 * What one slice does, decided before anything is written, so a slice that dies can be cut
 * at any write. In order: plan when asked; `stuck` repeats itself on its stuck todo; answer
 * a new review round; push a fix for a red check on finished work; else work the todo.
 */
import { type Notes, noteLine } from "./agent-notes.ts";
import type { Profile, PullView, Skill, SkillTodo, WorkTree } from "./agent-types.ts";
import { editedContent } from "./edit-file.ts";
import { asksForPlan, ownSections, todoText } from "./read-prompt.ts";
import {
  namedTodo,
  ownContents,
  revealedBy,
  skillTodos,
  stuckTitle,
  targetFiles,
  workOrder,
} from "./skill-plan.ts";

export interface Write {
  path: string;
  content: string;
}

export type ActionKind = "plan" | "stuck" | "review" | "ci-fix" | "done" | "work";

export interface SliceAction {
  kind: ActionKind;
  todo: string | null;
  writes: Write[];
  notes: string[];
  progressed: boolean;
  finishedTodo: boolean;
  allDone: boolean;
  proposedTodos: string[];
  questions: string[];
  summary: string;
}

export interface SliceContext {
  prompt: string;
  tree: WorkTree;
  pull: PullView | null;
  skill: Skill;
  profile: Profile;
  notes: Notes;
}

/**
 * A failed check whose output says a person has to approve something: no code change can
 * turn it green, as an agent reading the check's text knows.
 */
const WAITS_FOR_A_PERSON =
  /\b(approves? with|waiting for (an? )?approval|needs? (an? )?approval)\b/i;

/** What `stuck` writes every slice: the same wrong change, never the right one. */
export const STUCK_PREFIX = 'throw new Error("stuck: the same wrong approach again");\n';

const idle = (kind: ActionKind, todo: string | null, summary: string): SliceAction => ({
  kind,
  todo,
  writes: [],
  notes: [],
  progressed: false,
  finishedTodo: false,
  allDone: false,
  proposedTodos: [],
  questions: [],
  summary,
});

export function decideSlice(ctx: SliceContext): SliceAction {
  const { skill, notes } = ctx;
  const todos = skillTodos(skill);
  const order = workOrder(skill, notes.done);
  if (asksForPlan(ctx.prompt)) {
    const open = order.filter((t) => !notes.done.has(t));
    return {
      ...idle("plan", null, open.length > 0 ? `proposed ${open.length} todos` : "all done"),
      notes: open.filter((t) => !notes.planned.has(t)).map(noteLine.plan),
      proposedTodos: open,
      allDone: open.length === 0,
    };
  }
  // Only a prompt that assigns a todo ("## Your todo:") names one: a plain loop's prompt may
  // quote the notes file, whose "done:" lines name todos that are finished, not assigned.
  const named = ownSections(ctx.prompt) === null ? null : namedTodo(todoText(ctx.prompt), skill);
  const current = named ?? order.find((t) => !notes.done.has(t)) ?? null;

  const stuck = ctx.profile === "stuck" && current !== null && current === stuckTitle(skill);
  if (stuck && !notes.done.has(current)) {
    const todo = todos.get(current)!;
    const [path, content] = [...targetFiles(todo, 0)][0] ?? ["STUCK.md", ""];
    return {
      ...idle("stuck", current, `worked on ${current} (the same change as last time)`),
      writes: [{ path, content: `${STUCK_PREFIX}${content}` }],
      progressed: true,
    };
  }

  // The pull request's reviews and checks are about what the branch holds last.
  const worked = notes.lastWorked !== null && todos.has(notes.lastWorked) ? notes.lastWorked : null;
  const last = named ?? worked ?? order[0] ?? null;
  const review = last === null ? null : reviewRound(ctx, last, named !== null);
  if (review) return review;
  const red = (ctx.pull?.checks ?? []).filter(
    (c) => c.conclusion === "failure" && !WAITS_FOR_A_PERSON.test(c.summary),
  );
  if (last !== null && red.length > 0 && notes.done.has(last))
    return ciFix(ctx, last, red[0]!.name);

  if (current === null) {
    return {
      ...idle("done", null, "every todo in NOTES.md is done"),
      notes: notes.allDone ? [] : [noteLine.allDone()],
      allDone: true,
    };
  }
  if (notes.done.has(current)) {
    return { ...idle("done", current, `${current} is already done`), finishedTodo: true };
  }
  return work(ctx, current);
}

function reviewRound(ctx: SliceContext, title: string, perTodo: boolean): SliceAction | null {
  const asked = (ctx.pull?.reviews ?? []).filter((r) => r.state === "changes_requested").length;
  // One branch for the whole objective has one review history; a todo's own branch has its.
  const answered = perTodo
    ? (ctx.notes.reviewFixed.get(title) ?? 0)
    : Math.max(0, ...ctx.notes.reviewFixed.values());
  if (asked <= answered) return null;
  const todo = skillTodos(ctx.skill).get(title)!;
  const fix = todo.reviewFixes[Math.min(asked, todo.reviewFixes.length) - 1];
  const writes = Object.keys(fix ?? {})
    .sort()
    .map((path) => edit(ctx, todo, path, fix![path]!));
  return {
    ...idle("review", title, `answered review round ${asked} on ${title}`),
    writes,
    notes: [noteLine.reviewFixed(title, asked)],
    progressed: writes.length > 0,
    questions: fix
      ? []
      : [
          `The review asks for changes to ${title} that I do not know how to make: what should change?`,
        ],
  };
}

const COMMENT: [RegExp, (text: string) => string][] = [
  [/\.(c|m)?(j|t)sx?$/, (t) => `// ${t}`],
  [/\.(py|sh|ya?ml|toml|rb)$/, (t) => `# ${t}`],
  [/\.(md|html)$/, (t) => `<!-- ${t} -->`],
];

/** Red CI on work it thinks is finished: push the same files again, in case it was flaky. */
function ciFix(ctx: SliceContext, title: string, check: string): SliceAction {
  const attempt = (ctx.notes.ciFixes.get(title) ?? 0) + 1;
  const files = [
    ...targetFiles(skillTodos(ctx.skill).get(title)!, ctx.notes.reviewFixed.get(title) ?? 0),
  ];
  const pick = COMMENT.flatMap(([re, comment]) =>
    files.filter(([path]) => re.test(path)).map(([path, content]) => ({ path, content, comment })),
  )[0];
  const writes: Write[] = [];
  if (pick) {
    // The files it knows are right, not the tree's copy, which a botched slice may have left.
    const current = pick.content
      .split("\n")
      .filter((l) => !/^(\/\/|#|<!--) fix: /.test(l))
      .join("\n");
    const sep = current.endsWith("\n") || current === "" ? "" : "\n";
    const line = pick.comment(`fix: ${check} attempt ${attempt}`);
    writes.push({ path: pick.path, content: `${current}${sep}${line}\n` });
  }
  return {
    ...idle("ci-fix", title, `${check} failed on ${title}: pushed fix attempt ${attempt}`),
    writes,
    notes: [noteLine.ciFix(title, attempt)],
    progressed: writes.length > 0,
  };
}

/** The write that takes `path` to `to`, keeping changes in it the agent did not make. */
function edit(ctx: SliceContext, todo: SkillTodo, path: string, to: string): Write {
  const from = todo.before?.[path] ?? null;
  return {
    path,
    content: editedContent(ctx.tree.read(path), from, to, ownContents(ctx.skill, path)),
  };
}

/** Slice j of k writes the first ceil(n*j/k) files (what already matches is left alone). */
function work(ctx: SliceContext, title: string): SliceAction {
  const todo = skillTodos(ctx.skill).get(title)!;
  const k = Math.max(1, todo.slices);
  const j = Math.min(k, (ctx.notes.progress.get(title)?.done ?? 0) + 1);
  const files = [...targetFiles(todo, ctx.notes.reviewFixed.get(title) ?? 0)];
  const upto = j === k ? files.length : Math.ceil((files.length * j) / k);
  const writes = files
    .slice(0, upto)
    .filter(([path, content]) => ctx.tree.read(path) !== content)
    .map(([path, content]) => edit(ctx, todo, path, content));
  if (j < k) {
    return {
      ...idle("work", title, `worked on ${title}: slice ${j} of ${k}`),
      writes,
      notes: [noteLine.progress(title, j, k)],
      progressed: true,
    };
  }
  const revealed = revealedBy(ctx.skill, title);
  const why = revealed.map((d) => ` Found more work: ${d.todo.title} (${d.why}).`).join("");
  return {
    ...idle("work", title, `finished ${title}.${why}`),
    writes,
    notes: [noteLine.done(title)],
    progressed: true,
    finishedTodo: true,
    proposedTodos: revealed.map((d) => d.todo.title),
  };
}
