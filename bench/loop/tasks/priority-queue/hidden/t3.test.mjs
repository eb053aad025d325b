import assert from "node:assert/strict";
import { test } from "node:test";
import { PriorityQueue } from "../src/priority-queue.mjs";

test("iteration yields priority order and leaves the queue intact", () => {
  const q = new PriorityQueue();
  for (const [v, p] of [
    ["d", 4],
    ["b", 2],
    ["a", 1],
    ["c", 3],
  ])
    q.push(v, p);
  assert.deepEqual([...q], ["a", "b", "c", "d"]);
  assert.deepEqual(Array.from(q), ["a", "b", "c", "d"]);
  assert.equal(q.size, 4);
  assert.equal(q.pop(), "a");
});

test("drain empties the queue in priority order", () => {
  const q = new PriorityQueue((a, b) => b - a);
  for (const [v, p] of [
    ["low", 1],
    ["high", 3],
    ["mid", 2],
  ])
    q.push(v, p);
  assert.deepEqual(q.drain(), ["high", "mid", "low"]);
  assert.equal(q.size, 0);
  assert.deepEqual(q.drain(), []);
});
