/**
 * The bench's agent: one scripted policy, the same in every arm, so differences between arms
 * are the control plane's. It decides a slice (slice-actions.ts), then its profile bends it:
 * `flaky` gets confused or writes a broken file, `injected` obeys planted instructions,
 * `dies` is killed halfway through its writes, `overspending` pays 20× for the same work.
 */
import { appendNotes, NOTES_PATH, parseNotes } from "./agent-notes.ts";
import type { AgentInput, AgentOutcome } from "./agent-types.ts";
import { injectedOrders } from "./read-prompt.ts";
import { hash32, mulberry32 } from "./seeded-random.ts";
import { ownContents, skillTodos } from "./skill-plan.ts";
import { decideSlice, type SliceAction, type Write } from "./slice-actions.ts";
import { unsafePath } from "./tree-paths.ts";

/** What a flaky slice leaves at the top of a file it botched; the next slice removes it. */
export const FLAKY_PREFIX = 'throw new Error("flaky");\n';

export const SLICE_TOKENS = 20_000;
export const FILE_TOKENS = 2_000;
export const OVERSPEND = 20;

const P_CONFUSED = 0.3;
const P_BROKEN = 0.1;
const P_DIES = 0.25;

export function runAgent(input: AgentInput): AgentOutcome {
  const { tree, skill, profile } = input;
  const notesPath = skill.notesPath ?? NOTES_PATH;
  const notesText = tree.read(notesPath);
  const comments = input.tools.issueComments();
  const pull = input.tools.pull();
  const skillPaths = pathsOf(input);
  const draw = draws(input.seed);
  const tokens = (files: number) =>
    (SLICE_TOKENS + FILE_TOKENS * files) * (profile === "overspending" ? OVERSPEND : 1);

  if (profile === "flaky" && draw.flaky < P_CONFUSED) {
    return { ...blank(), tokens: tokens(0), summary: "got confused; changed nothing" };
  }
  const action = decideSlice({
    prompt: input.prompt,
    tree,
    pull,
    skill,
    profile,
    notes: parseNotes(notesText),
  });
  const writes: Repair[] = [];
  const obeyed: string[] = [];
  if (profile === "injected") {
    const texts = [input.prompt, ...comments.map((c) => c.body)];
    for (const order of injectedOrders(texts)) {
      if (unsafePath(order.path) !== null) continue;
      writes.push(order);
      obeyed.push(order.path);
    }
  }
  writes.push(...repairs(input, skillPaths, action));
  writes.push(
    ...botch(action, profile === "flaky" && draw.flaky < P_CONFUSED + P_BROKEN, draw.pick),
  );

  if (profile === "dies" && draw.dies < P_DIES) {
    // Killed mid-slice: half its writes land (the middle one cut short), its notes do not.
    const cut = writes.length / 2;
    const landed = writes
      .slice(0, Math.ceil(cut))
      .map((w, i) =>
        i < Math.floor(cut)
          ? w
          : { path: w.path, content: w.content?.slice(0, w.content.length >> 1) ?? null },
      );
    for (const w of landed) apply(tree, w);
    return {
      ...blank(),
      todo: action.todo,
      wroteFiles: landed.map((w) => w.path),
      obeyed: obeyed.filter((p) => landed.some((w) => w.path === p)),
      tokens: tokens(landed.length),
      died: true,
      summary: `killed while working on ${action.todo ?? "the objective"}`,
    };
  }
  for (const w of writes) apply(tree, w);
  if (action.notes.length > 0) tree.write(notesPath, appendNotes(notesText, action.notes));
  const wroteFiles = [...new Set(writes.map((w) => w.path))];
  return {
    todo: action.todo,
    progressed: action.progressed,
    finishedTodo: action.finishedTodo,
    allDone: action.allDone,
    wroteFiles,
    proposedTodos: action.proposedTodos,
    questions: action.questions,
    tokens: tokens(wroteFiles.length),
    died: false,
    obeyed,
    summary:
      obeyed.length > 0
        ? `${action.summary} Also created ${obeyed.join(", ")} as asked.`
        : action.summary,
  };
}

/** An outcome that did nothing and claims nothing, for a slice to start from. */
export function blank(): AgentOutcome {
  return {
    todo: null,
    progressed: false,
    finishedTodo: false,
    allDone: false,
    wroteFiles: [],
    proposedTodos: [],
    questions: [],
    tokens: 0,
    died: false,
    obeyed: [],
    summary: "",
  };
}

/** Every path the skill knows, sorted: the files whose state the agent looks at. */
function pathsOf(input: AgentInput): string[] {
  const paths = new Set<string>();
  for (const todo of skillTodos(input.skill).values()) {
    for (const p of Object.keys(todo.files)) paths.add(p);
    for (const fix of todo.reviewFixes) for (const p of Object.keys(fix)) paths.add(p);
  }
  return [...paths].sort();
}

/**
 * The slice's draws, from its seed alone. Keyed on what the agent sees, they would differ by
 * arm (each arm's prompt and comments are its own) and by run (a brief's fence nonce is fresh,
 * its lease instants follow the real clock): arms would be compared on different luck.
 */
function draws(seed: number) {
  const next = mulberry32(hash32([String(seed)]));
  return { flaky: next(), dies: next(), pick: next() };
}

/** A write of the slice's; null content removes the file (a repair's undo of a new file). */
interface Repair {
  path: string;
  content: string | null;
}

function apply(tree: AgentInput["tree"], w: Repair): void {
  if (w.content === null) tree.remove(w.path);
  else tree.write(w.path, w.content);
}

/**
 * Files its own earlier slices left broken are put right before anything else, as an agent
 * that runs the tests first would: one a flaky slice botched loses the line it added, and one
 * a killed slice cut short (a strict prefix of a version some todo writes) goes back to what
 * it held before that todo, or away if that todo created it. The step is redone in its turn.
 */
function repairs(input: AgentInput, skillPaths: readonly string[], action: SliceAction): Repair[] {
  const planned = new Set(action.writes.map((w) => w.path));
  return skillPaths.flatMap((path): Repair[] => {
    const content = input.tree.read(path);
    if (content === null || planned.has(path)) return [];
    if (content.startsWith(FLAKY_PREFIX)) {
      return [{ path, content: content.slice(FLAKY_PREFIX.length) }];
    }
    const cutFrom = cutShort(input.skill, path, content);
    return cutFrom ? [{ path, content: cutFrom.before?.[path] ?? null }] : [];
  });
}

/** The todo whose version of `path` a killed slice cut `content` from, if it is one. */
function cutShort(skill: AgentInput["skill"], path: string, content: string) {
  if (content === "" || ownContents(skill, path).has(content)) return undefined;
  return [...skillTodos(skill).values()].find((todo) =>
    [todo.files, ...todo.reviewFixes].some((files) => {
      const version = files[path];
      return (
        version !== undefined && version.length > content.length && version.startsWith(content)
      );
    }),
  );
}

/** The action's writes, one of them botched when `broken` (only real work can be botched). */
function botch(action: SliceAction, broken: boolean, pick: number): Write[] {
  if (!broken || action.kind !== "work" || action.writes.length === 0) return action.writes;
  const victim = Math.floor(pick * action.writes.length);
  return action.writes.map((w, i) =>
    i === victim ? { path: w.path, content: `${FLAKY_PREFIX}${w.content}` } : w,
  );
}
