/**
 * The bench's agent: one scripted policy, the same in every arm, so differences between arms
 * are the control plane's. It decides a slice (slice-actions.ts), then its profile bends it:
 * `flaky` gets confused or writes a broken file, `injected` obeys planted instructions,
 * `dies` is killed halfway through its writes, `overspending` pays 20× for the same work.
 */
import { appendNotes, NOTES_PATH, parseNotes } from "./agent-notes.ts";
import type { AgentInput, AgentOutcome, PullView } from "./agent-types.ts";
import { injectedOrders } from "./read-prompt.ts";
import { hash32, mulberry32 } from "./seeded-random.ts";
import { skillTodos } from "./skill-plan.ts";
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
  const draw = draws(input, notesText, comments, pull, skillPaths);
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
  const writes: Write[] = [];
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
          : { path: w.path, content: w.content.slice(0, w.content.length >> 1) },
      );
    for (const w of landed) tree.write(w.path, w.content);
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
  for (const w of writes) tree.write(w.path, w.content);
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
 * The slice's draws, keyed on the seed and on everything the agent sees, so a fixed seed
 * still varies as the notes, the files, the checks or the prompt move on.
 */
function draws(
  input: AgentInput,
  notesText: string | null,
  comments: unknown,
  pull: PullView | null,
  skillPaths: readonly string[],
) {
  const seen = skillPaths.map((p) => `${p}\n${input.tree.read(p) ?? ""}`);
  const next = mulberry32(
    hash32([
      String(input.seed),
      steadyPrompt(input.prompt),
      notesText ?? "",
      JSON.stringify([comments, pull]),
      ...seen,
    ]),
  );
  return { flaky: next(), dies: next(), pick: next() };
}

/**
 * The prompt as two runs of one seed both see it. A brief's fence nonce is fresh per brief and
 * its lease instants follow the real clock; hashed as they are, the same cell would draw
 * differently on every run.
 */
export function steadyPrompt(prompt: string): string {
  const nonce = /"UNTRUSTED DATA ([0-9a-f]{16,})"/.exec(prompt)?.[1];
  const unnonced = nonce ? prompt.replaceAll(nonce, "[nonce]") : prompt;
  return unnonced.replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z/g, "[instant]");
}

/** A file a flaky slice botched is put right before anything else. */
function repairs(input: AgentInput, skillPaths: readonly string[], action: SliceAction): Write[] {
  const planned = new Set(action.writes.map((w) => w.path));
  return skillPaths.flatMap((path) => {
    const content = input.tree.read(path);
    if (content === null || !content.startsWith(FLAKY_PREFIX) || planned.has(path)) return [];
    return [{ path, content: content.slice(FLAKY_PREFIX.length) }];
  });
}

/** The action's writes, one of them botched when `broken` (only real work can be botched). */
function botch(action: SliceAction, broken: boolean, pick: number): Write[] {
  if (!broken || action.kind !== "work" || action.writes.length === 0) return action.writes;
  const victim = Math.floor(pick * action.writes.length);
  return action.writes.map((w, i) =>
    i === victim ? { path: w.path, content: `${FLAKY_PREFIX}${w.content}` } : w,
  );
}
