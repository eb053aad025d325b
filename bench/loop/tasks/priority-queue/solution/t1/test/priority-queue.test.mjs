import assert from "node:assert/strict";
import { test } from "node:test";
import { PriorityQueue } from "../src/priority-queue.mjs";

test("pops in priority order", () => {
  const q = new PriorityQueue();
  for (const [v, p] of [
    ["c", 3],
    ["a", 1],
    ["d", 4],
    ["b", 2],
  ])
    q.push(v, p);
  assert.equal(q.size, 4);
  assert.equal(q.peek(), "a");
  assert.deepEqual([q.pop(), q.pop(), q.pop(), q.pop(), q.pop()], ["a", "b", "c", "d", undefined]);
});

test("a custom compare makes a max-heap", () => {
  const q = new PriorityQueue((a, b) => b - a);
  q.push("low", 1);
  q.push("high", 9);
  assert.equal(q.pop(), "high");
});

test("equal priorities pop in insertion order", () => {
  const q = new PriorityQueue();
  for (const v of ["j1", "j2", "j3", "j4", "j5"]) q.push(v, 0);
  assert.deepEqual([q.pop(), q.pop(), q.pop(), q.pop(), q.pop()], ["j1", "j2", "j3", "j4", "j5"]);
});
