import assert from "node:assert/strict";
import { test } from "node:test";
import { PriorityQueue } from "../src/priority-queue.mjs";

function drainAll(q) {
  const out = [];
  while (q.size > 0) out.push(q.pop());
  return out;
}

test("remove keeps the heap ordered, whichever way the moved item must go", () => {
  for (let victim = 0; victim < 15; victim++) {
    const q = new PriorityQueue();
    const prios = [7, 3, 11, 1, 9, 5, 13, 0, 8, 2, 12, 4, 10, 6, 14];
    for (const p of prios) q.push(`v${p}`, p);
    assert.equal(q.remove(`v${prios[victim]}`), true);
    const want = [...prios]
      .sort((a, b) => a - b)
      .filter((p) => p !== prios[victim])
      .map((p) => `v${p}`);
    assert.deepEqual(drainAll(q), want);
  }
});

test("remove of an absent item says false and changes nothing", () => {
  const q = new PriorityQueue();
  q.push("a", 1);
  assert.equal(q.remove("zzz"), false);
  assert.equal(q.size, 1);
  assert.equal(q.remove("a"), true);
  assert.equal(q.size, 0);
  assert.equal(q.remove("a"), false);
});
