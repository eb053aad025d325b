/**
 * A goal's thread of notes is windowed like its finished work: a transition carries the
 * notes the next claim delivers (every waiting outsider's, the oldest writers' up to a
 * slice's share) and the newest delivered ones, never the whole thread. What each load
 * carries is checked against the notes table read whole, and the claim made on the windowed
 * load must deliver exactly the slice's share and leave the rest waiting, untouched.
 */
import {
  buildBrief,
  type GoalState,
  queueNote,
  type TransitionContext,
  WRITER_NOTES_PER_SLICE,
} from "@loopx/core";
import { DEFAULT_WINDOW, type LoadWindow, type Store } from "@loopx/store";
import { dbOf, rowsOf, sql } from "@loopx/store/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { type OpenStore, onEveryDriver } from "../support/databases.ts";
import { kernelClaim, kernelCreate } from "./kernel-fixtures.ts";

const WRITER = { kind: "human", login: "bob", trusted: true } as const;
const VISITOR = { kind: "human", login: "visitor", trusted: false } as const;
/** A window whose delivered-notes share bites: fewer than one slice delivers. */
const SMALL: LoadWindow = { ...DEFAULT_WINDOW, recentNotes: 5 };
const WRITERS = WRITER_NOTES_PER_SLICE + 10;

const NoteRow = z.object({
  id: z.string(),
  text: z.string(),
  trusted: z.boolean(),
  delivered_to: z.string().nullable(),
});

function describeNotesWindow(name: string, open: OpenStore) {
  describe(`a transition carries the notes a slice reads, not the thread (${name})`, () => {
    let store: Store;
    let done: () => Promise<void> = async () => {};
    let goalId = "";
    beforeAll(async () => {
      ({ store, done } = await open());
      await store.migrate();
      const created = await store.createGoal(kernelCreate({ todos: 1 }));
      if (!created.ok) throw new Error(created.refusal.message);
      goalId = created.state.goal.id;
      for (let i = 0; i < WRITERS; i++) {
        await note(WRITER, `writer note ${i}`);
        if (i === 2 || i === WRITERS - 1) await note(VISITOR, `visitor after ${i}`);
      }
    });
    afterAll(async () => {
      await store.close();
      await done();
    });

    async function note(actor: typeof WRITER | typeof VISITOR, text: string) {
      const ctx = (now: Date): TransitionContext => ({
        actor,
        now,
        newId: () => crypto.randomUUID(),
      });
      const r = await store.apply(goalId, (s, now) => queueNote(s, { text }, ctx(now)));
      if (!r.ok) throw new Error(r.refusal.message);
    }

    /** The whole thread, in the order it was written. */
    async function thread() {
      const rows = rowsOf(
        await dbOf(store).execute(
          sql`SELECT id, text, trusted, delivered_to FROM notes WHERE goal_id = ${goalId} ORDER BY seq`,
        ),
      );
      return rows.map((r) => NoteRow.parse(r));
    }

    /** What a windowed load must carry, by the rule, from the whole thread. */
    async function expectedWindow(window: LoadWindow): Promise<string[]> {
      const all = await thread();
      const waiting = all.filter((n) => n.delivered_to === null);
      const writers = waiting.filter((n) => n.trusted).slice(0, WRITER_NOTES_PER_SLICE);
      const delivered = all.filter((n) => n.delivered_to !== null).slice(-window.recentNotes);
      const keep = new Set([...waiting.filter((n) => !n.trusted), ...writers, ...delivered]);
      return all.filter((n) => keep.has(n)).map((n) => n.text);
    }

    const texts = (s: GoalState | null) => (s?.notes ?? []).map((n) => n.text);

    it("before any slice: every outsider's note and the oldest writers' notes", async () => {
      const loaded = await store.loadGoal(goalId, SMALL);
      expect(texts(loaded)).toEqual(await expectedWindow(SMALL));
      expect(loaded?.notes.filter((n) => n.trusted)).toHaveLength(WRITER_NOTES_PER_SLICE);
      expect(loaded?.notes.filter((n) => !n.trusted)).toHaveLength(2);
    });

    it("a claim on that load delivers exactly them, and its brief shows them", async () => {
      const claim = kernelClaim({ agent: "agent-1" });
      const claimed = await store.apply(goalId, claim.transition, { window: SMALL });
      if (!claimed.ok) throw new Error(claimed.refusal.message);

      const all = await thread();
      const delivered = all.filter((n) => n.delivered_to === claim.tickId).map((n) => n.text);
      const writers = Array.from({ length: WRITERS }, (_, i) => `writer note ${i}`);
      expect(delivered).toEqual([
        ...writers.slice(0, 3),
        "visitor after 2",
        ...writers.slice(3, WRITER_NOTES_PER_SLICE),
        `visitor after ${WRITERS - 1}`,
      ]);
      // The writers' notes the window left out still wait, as they were.
      const waiting = all.filter((n) => n.delivered_to === null).map((n) => n.text);
      expect(waiting).toEqual(writers.slice(WRITER_NOTES_PER_SLICE));

      const tick = claimed.state.ticks.find((t) => t.id === claim.tickId);
      if (!tick) throw new Error("the claim made no tick");
      const { brief } = buildBrief(claimed.state, tick, { nonce: "n".repeat(16) });
      expect(brief.notes.map((n) => n.text)).toEqual(writers.slice(0, WRITER_NOTES_PER_SLICE));
    });

    it("after it: the writers' notes still waiting and the newest delivered ones", async () => {
      const loaded = await store.loadGoal(goalId, SMALL);
      const expected = await expectedWindow(SMALL);
      expect(texts(loaded)).toEqual(expected);
      expect(expected.length).toBeLessThan((await thread()).length);
    });
  });
}

onEveryDriver(describeNotesWindow);
