import { describe, expect, it } from "vitest";
import {
  type Actor,
  claimTodo,
  type GoalState,
  queueNote,
  WAITING_OUTSIDER_NOTES,
} from "../src/index.ts";
import {
  claimInput,
  ctx,
  expectOk,
  expectRefused,
  idFactory,
  state,
  T0,
  todo,
  WRITER,
} from "./fixtures.ts";

const { perPerson, total } = WAITING_OUTSIDER_NOTES;
const outsider = (login: string): Actor => ({ kind: "human", login, trusted: false });

/** `s` after each of `from` left one plain comment, every one of them kept. */
function commented(s: GoalState, from: Actor[]): GoalState {
  const newId = idFactory(40);
  let now = s;
  for (const [i, actor] of from.entries()) {
    now = expectOk(queueNote(now, { text: `note ${i}` }, ctx(T0, actor, { newId }))).state;
  }
  return now;
}

/** Outsiders enough to fill the waiting notes, each leaving as many as one person may. */
function filledByOutsiders(): GoalState {
  const people = Array.from({ length: Math.ceil(total / perPerson) }, (_, i) =>
    outsider(`visitor-${i}`),
  );
  const from = people.flatMap((p) => Array<Actor>(perPerson).fill(p)).slice(0, total);
  return commented(state({ todos: [todo("T1")] }), from);
}

describe("outsiders' notes waiting for the next slice", () => {
  it("keeps one person's notes up to their share, then refuses the next and changes nothing", () => {
    const spammer = outsider("spammer");
    const s = commented(state({ todos: [todo("T1")] }), Array(perPerson).fill(spammer));
    expect(s.notes.filter((n) => n.from === "spammer")).toHaveLength(perPerson);

    const refused = expectRefused(queueNote(s, { text: "one more" }, ctx(T0, spammer)));
    expect(refused.code).toBe("invalid_state");
    expect(refused.message).toContain(`@spammer already has ${perPerson}`);
    expect(refused.message).toContain("after the next slice");

    // Someone else without write access still has their share.
    const other = expectOk(queueNote(s, { text: "a real report" }, ctx(T0, outsider("other"))));
    expect(other.state.notes.at(-1)?.from).toBe("other");
  });

  it("refuses a newcomer once the waiting notes are full, but never a writer", () => {
    const s = filledByOutsiders();
    expect(s.notes.filter((n) => !n.trusted && n.deliveredTo === null)).toHaveLength(total);

    const refused = expectRefused(queueNote(s, { text: "hi" }, ctx(T0, outsider("newcomer"))));
    expect(refused.message).toContain(`${total} comments from people without write access`);

    const writer = expectOk(queueNote(s, { text: "use the v2 API" }, ctx(T0, WRITER)));
    expect(writer.state.notes.at(-1)).toMatchObject({ from: "writer", trusted: true });
  });

  it("makes room again once a slice has read the waiting notes", () => {
    const s = filledByOutsiders();
    const read = expectOk(claimTodo(s, claimInput(1), ctx(T0))).state;
    expect(read.notes.every((n) => n.deliveredTo !== null)).toBe(true);

    const again = expectOk(
      queueNote(read, { text: "after the slice" }, ctx(T0, outsider("visitor-0"))),
    );
    expect(again.state.notes.at(-1)).toMatchObject({ from: "visitor-0", deliveredTo: null });
  });
});
