import { describe, expect, it } from "vitest";
import {
  type Actor,
  buildBrief,
  claimTodo,
  expireLeases,
  type GoalState,
  queueNote,
  WRITER_NOTES_PER_SLICE,
} from "../src/index.ts";
import {
  at,
  claimInput,
  ctx,
  expectOk,
  idFactory,
  minutes,
  state,
  T0,
  todo,
  WRITER,
} from "./fixtures.ts";

const VISITOR: Actor = { kind: "human", login: "visitor", trusted: false };
/** More writers' notes than two slices read, so a third slice still has some. */
const WRITERS = 2 * WRITER_NOTES_PER_SLICE + 5;

/** A goal whose writer left WRITERS notes while no slice ran, with two outsiders' among them. */
function thread(): GoalState {
  const newId = idFactory(41);
  let s = state({ todos: [todo("T1")] });
  for (let i = 0; i < WRITERS; i++) {
    s = expectOk(queueNote(s, { text: `writer note ${i}` }, ctx(T0, WRITER, { newId }))).state;
    if (i === 3 || i === WRITERS - 1) {
      s = expectOk(queueNote(s, { text: `visitor after ${i}` }, ctx(T0, VISITOR, { newId }))).state;
    }
  }
  return s;
}

const texts = (s: GoalState, tickId: string) =>
  s.notes.filter((n) => n.deliveredTo === tickId).map((n) => n.text);
const writerNotes = (from: number, to: number) =>
  Array.from({ length: to - from }, (_, i) => `writer note ${from + i}`);

describe("the writers' notes one slice reads", () => {
  it("a claim delivers the oldest writers' notes up to the slice's share, and every outsider's", () => {
    const s = thread();
    const input = claimInput(1);
    const claimed = expectOk(claimTodo(s, input, ctx(T0))).state;

    expect(texts(claimed, input.tickId)).toEqual([
      ...writerNotes(0, 4),
      "visitor after 3",
      ...writerNotes(4, WRITER_NOTES_PER_SLICE),
      `visitor after ${WRITERS - 1}`,
    ]);
    const waiting = claimed.notes.filter((n) => n.deliveredTo === null).map((n) => n.text);
    expect(waiting).toEqual(writerNotes(WRITER_NOTES_PER_SLICE, WRITERS));

    // The slice's brief gives it those writers' notes as instructions, and none still waiting.
    const tick = claimed.ticks.find((t) => t.id === input.tickId);
    if (!tick) throw new Error("the claim made no tick");
    const { brief } = buildBrief(claimed, tick, { nonce: "n".repeat(16) });
    expect(brief.notes.map((n) => n.text)).toEqual(writerNotes(0, WRITER_NOTES_PER_SLICE));
  });

  it("the notes left waiting go to the next slices, oldest first, each note once", () => {
    let s = thread();
    const newId = idFactory(42);
    const read: string[][] = [];
    for (let n = 1; n <= 3; n++) {
      // Each claim comes after the last one's lease has run out; a writer's note after that
      // ends the backoff a slice without a report starts.
      const now = at(minutes(31 * (n - 1)));
      if (n > 1) {
        s = expectOk(expireLeases(s, ctx(now))).state;
        s = expectOk(
          queueNote(s, { text: `writer extra ${n}` }, ctx(now, WRITER, { newId })),
        ).state;
      }
      const input = claimInput(n);
      s = expectOk(claimTodo(s, input, ctx(now))).state;
      read.push(texts(s, input.tickId).filter((t) => t.startsWith("writer")));
    }
    expect(read).toEqual([
      writerNotes(0, WRITER_NOTES_PER_SLICE),
      writerNotes(WRITER_NOTES_PER_SLICE, 2 * WRITER_NOTES_PER_SLICE),
      [...writerNotes(2 * WRITER_NOTES_PER_SLICE, WRITERS), "writer extra 2", "writer extra 3"],
    ]);
    expect(s.notes.every((n) => n.deliveredTo !== null)).toBe(true);
  });
});
