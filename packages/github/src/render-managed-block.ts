import {
  awaitingMergeWords,
  claimOfTodo,
  type GoalState,
  isAwaitingEvidence,
  isAwaitingPullRequest,
  openPlanGate,
  type Todo,
  todoStateWords,
} from "@loopx/core";
import { formatInstant } from "./format.ts";
import { BLOCK_BEGIN, BLOCK_END, todoMarker } from "./markers.ts";
import { neutralizeInline } from "./neutralize.ts";
import { safeUrl } from "./safe-url.ts";
import { truncateBody } from "./truncate-body.ts";

/**
 * The block's share of the 65,536 characters: the author's objective keeps the rest. At
 * ~300 characters a line this still lists 100 todos.
 */
export const MANAGED_BLOCK_LIMIT = 32768;

export interface ManagedBlockOptions {
  /** Link to the sticky status comment; null before it has been posted. */
  statusCommentUrl: string | null;
  /** The goal's page on the dashboard, where every todo is listed; null when it is off. */
  dashboardUrl?: string | null;
  /**
   * How many of the most recently finished todos are listed (default 10, what the store's
   * window always loads); older ones are counted, so a windowed aggregate and the whole one
   * render the same block.
   */
  recentFinished?: number;
  /**
   * The clock the block is rendered at: with it, an open todo someone holds says who and
   * until when (LoopX's tick under its lease, a person's claim, an assignee).
   */
  now?: Date;
}

/** Open todos listed after the ones being worked; the rest are counted. */
export const CHECKLIST_OPEN = 50;
export const CHECKLIST_RECENT_FINISHED = 10;

function keyNumber(key: string): number {
  return Number.parseInt(key.slice(1), 10);
}

function byPosition(a: Todo, b: Todo): number {
  return a.position - b.position || keyNumber(a.key) - keyNumber(b.key);
}

/** Who holds an open todo, in words; the login is not an @-mention, so no one is pinged. */
function heldText(state: GoalState, todo: Todo, now: Date | undefined): string {
  if (now === undefined || todo.status === "done" || todo.status === "dropped") return "";
  const claim = claimOfTodo(state, todo, now);
  if (claim === null) return "";
  if (claim.kind === "lease") {
    const tick = claim.tickNumber === null ? "a tick" : `tick #${claim.tickNumber}`;
    return ` (being worked by LoopX, ${tick}, until ${formatInstant(claim.until)})`;
  }
  const who = neutralizeInline(claim.holder, 40).replace(/^@/, "");
  const how =
    claim.via === "assignment"
      ? `assigned to ${who}${claim.issue !== null ? ` on #${claim.issue}` : ""}`
      : `claimed by ${who}`;
  const until = claim.until === null ? "" : ` until ${formatInstant(claim.until)}`;
  const free =
    claim.via === "assignment" ? "unassign to free it" : `\`/loopx release ${todo.key}\` frees it`;
  return ` (${how}${until}; LoopX skips it, ${free})`;
}

function item(state: GoalState, todo: Todo, planGate: string | null, held: string): string {
  const title = neutralizeInline(todo.title);
  const sub = todo.subIssue ? ` (#${todo.subIssue.number})` : "";
  // Dropped todos stay visible (struck through) so a person sees the plan changed, but get
  // no checkbox and no marker: ticking one would have no meaning, so it must not be intake.
  if (todo.status === "dropped") return `- ~~${todo.key} ${title}~~${sub} (dropped)`;
  const box = todo.status === "done" ? "[x]" : "[ ]";
  // Finished on its branch but not delivered: a person sees why the box is still empty.
  // The body is rewritten only when the checklist changes, not when the PR opens, so the
  // checklist does not name the PR: a number would be missing or stale in between.
  const waiting = isAwaitingPullRequest(todo)
    ? ` (${awaitingMergeWords(null)})`
    : isAwaitingEvidence(todo)
      ? ` (${todoStateWords(state, todo, todo.updatedAt)}: tick it if it is done)`
      : "";
  // Its text reaches slices only as data until a writer takes it on.
  const proposed =
    todo.status === "proposed"
      ? ` (proposed by an agent, not run until a writer approves the plan${planGate ? ` with \`/loopx approve ${planGate}\`` : ""})`
      : todo.origin === "agent" && todo.status !== "done"
        ? ` (proposed by an agent; \`/loopx todo accept ${todo.key}\` makes it yours)`
        : "";
  return `- ${box} ${todo.key} ${title}${sub}${held}${waiting}${proposed} ${todoMarker(todo.key)}`;
}

/**
 * The part of the goal issue body LoopX owns: the todo checklist (each item tagged with a
 * hidden marker so a person's tick can be read back) and a link to the status comment.
 * Status, gates and budgets deliberately live in the status comment: the body is rewritten
 * only when the checklist changes, because PATCH on an issue is last-write-wins.
 */
export function renderManagedBlock(state: GoalState, options: ManagedBlockOptions): string {
  const url = options.statusCommentUrl ? safeUrl(options.statusCommentUrl) : null;
  const heading = url
    ? `**LoopX checklist** · [status, gates and budget](${url})`
    : "**LoopX checklist** · status comment coming";
  const todos = shownTodos(state, options.recentFinished ?? CHECKLIST_RECENT_FINISHED);
  const planGate = openPlanGate(state)?.key ?? null;
  // Every todo ever added is still a row (keys come from a counter and are never reused), so
  // the counter counts the todos a windowed aggregate left out as well.
  const total = Math.max(state.goal.counters.todo - 1, state.todos.length);
  const hidden = total - todos.length;
  const more = hidden > 0 ? `\n\n${hiddenLine(hidden, options.dashboardUrl ?? null)}` : "";
  const items =
    todos.length > 0
      ? `${todos.map((t) => item(state, t, planGate, heldText(state, t, options.now))).join("\n")}${more}`
      : "_No todos yet._";
  const inner = truncateBody(
    `${heading}\n\n${items}`,
    MANAGED_BLOCK_LIMIT - BLOCK_BEGIN.length - BLOCK_END.length - 2,
    url ?? undefined,
  );
  return `${BLOCK_BEGIN}\n${inner}\n${BLOCK_END}`;
}

function isFinished(t: Todo): boolean {
  return t.status === "done" || t.status === "dropped";
}

/** Newest finished first: by completion time (dropped ones have none, so last), then key. */
function byRecentFinish(a: Todo, b: Todo): number {
  const at = (t: Todo) => t.completion?.at.getTime() ?? Number.NEGATIVE_INFINITY;
  return at(b) - at(a) || keyNumber(b.key) - keyNumber(a.key);
}

/**
 * What the block lists, in plan order: the todos being worked, the next CHECKLIST_OPEN open
 * ones, and the `recent` most recently finished. A person's tick is read back only for
 * listed items, and an item missing from the block is no tick (diffChecklist), so leaving
 * the rest out neither loses nor invents intake.
 */
function shownTodos(state: GoalState, recent: number): Todo[] {
  const worked = state.todos.filter((t) => t.claim !== null && !isFinished(t));
  const open = state.todos
    .filter((t) => t.claim === null && !isFinished(t))
    .sort(byPosition)
    .slice(0, CHECKLIST_OPEN);
  const finished = state.todos.filter(isFinished).sort(byRecentFinish).slice(0, recent);
  return [...worked, ...open, ...finished].sort(byPosition);
}

function hiddenLine(hidden: number, dashboardUrl: string | null): string {
  const url = dashboardUrl ? safeUrl(dashboardUrl) : null;
  const where = url ? `[every todo on the dashboard](${url})` : "every todo: `loopx status`";
  return `_…and ${hidden} more ${hidden === 1 ? "todo" : "todos"} (finished earlier, or later in the plan): ${where}_`;
}
