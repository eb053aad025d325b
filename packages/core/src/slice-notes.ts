import type { Note } from "./schemas/state.ts";

/**
 * Writers' notes one slice reads, oldest first; more wait for the slice after. A brief holds
 * 8 KB, so a longer queue could not reach one agent anyway, and a transition carries only
 * these (the store's load window): a goal whose team keeps commenting while no slice runs
 * (it waits days on a decision) would otherwise make every transition of it load and copy
 * the whole thread.
 */
export const WRITER_NOTES_PER_SLICE = 20;

/**
 * The notes a slice reads: of those delivered to `tickId` (null: a slice not yet claimed)
 * and those still waiting, every outsider's (WAITING_OUTSIDER_NOTES bounds them) and the
 * oldest WRITER_NOTES_PER_SLICE writers'. A claim delivers these; its brief shows these.
 */
export function notesForSlice(notes: readonly Note[], tickId: string | null): Note[] {
  const candidates = notes.filter((n) => n.deliveredTo === null || n.deliveredTo === tickId);
  const writers = new Set(candidates.filter((n) => n.trusted).slice(0, WRITER_NOTES_PER_SLICE));
  return candidates.filter((n) => !n.trusted || writers.has(n));
}
