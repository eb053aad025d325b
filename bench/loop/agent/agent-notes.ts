/**
 * NOTES.md, the agent's only memory between slices: one fact per line, appended, read back
 * at the start of every slice. Lines it does not recognise (a person's, a merge's) are kept
 * and ignored, so the file survives being edited by others.
 */

export const NOTES_PATH = "NOTES.md";

export interface Notes {
  /** The last `progress:` line per title: slices done of the todo's count. */
  progress: Map<string, { done: number; of: number }>;
  done: Set<string>;
  /** The highest review round answered per title. */
  reviewFixed: Map<string, number>;
  /** How many CI fix pushes per title. */
  ciFixes: Map<string, number>;
  planned: Set<string>;
  allDone: boolean;
  /** The title of the last `progress:` or `done:` line: the work the branch holds last. */
  lastWorked: string | null;
}

export const noteLine = {
  progress: (title: string, done: number, of: number) =>
    `progress: ${oneLine(title)} ${done}/${of}`,
  done: (title: string) => `done: ${oneLine(title)}`,
  reviewFixed: (title: string, round: number) => `review-fixed: ${oneLine(title)} ${round}`,
  ciFix: (title: string, attempt: number) => `ci-fix: ${oneLine(title)} ${attempt}`,
  plan: (title: string) => `plan: ${oneLine(title)}`,
  allDone: () => "DONE",
};

const PROGRESS = /^progress: (.+) (\d+)\/(\d+)$/;
const DONE = /^done: (.+)$/;
const REVIEW_FIXED = /^review-fixed: (.+) (\d+)$/;
const CI_FIX = /^ci-fix: (.+) (\d+)$/;
const PLAN = /^plan: (.+)$/;

export function parseNotes(text: string | null): Notes {
  const notes: Notes = {
    progress: new Map(),
    done: new Set(),
    reviewFixed: new Map(),
    ciFixes: new Map(),
    planned: new Set(),
    allDone: false,
    lastWorked: null,
  };
  for (const raw of (text ?? "").split("\n")) readLine(notes, raw.trim());
  return notes;
}

function readLine(notes: Notes, line: string): void {
  if (line === "DONE") {
    notes.allDone = true;
    return;
  }
  const progress = PROGRESS.exec(line);
  if (progress) {
    notes.progress.set(progress[1]!, { done: Number(progress[2]), of: Number(progress[3]) });
    notes.lastWorked = progress[1]!;
    return;
  }
  const done = DONE.exec(line);
  if (done) {
    notes.done.add(done[1]!);
    notes.lastWorked = done[1]!;
    return;
  }
  const fixed = REVIEW_FIXED.exec(line);
  if (fixed) {
    notes.reviewFixed.set(
      fixed[1]!,
      Math.max(notes.reviewFixed.get(fixed[1]!) ?? 0, Number(fixed[2])),
    );
    return;
  }
  const ci = CI_FIX.exec(line);
  if (ci) {
    notes.ciFixes.set(ci[1]!, Math.max(notes.ciFixes.get(ci[1]!) ?? 0, Number(ci[2])));
    return;
  }
  const plan = PLAN.exec(line);
  if (plan) notes.planned.add(plan[1]!);
}

/** The notes with `lines` appended; a header first when the file is new. */
export function appendNotes(text: string | null, lines: readonly string[]): string {
  const base = text ?? "# Agent notes\n";
  const sep = base === "" || base.endsWith("\n") ? "" : "\n";
  return `${base}${sep}${lines.map((l) => `${l}\n`).join("")}`;
}

/** Titles are matched line by line, so a newline in one would split its note. */
export function oneLine(title: string): string {
  return title.replace(/\s+/g, " ").trim();
}
