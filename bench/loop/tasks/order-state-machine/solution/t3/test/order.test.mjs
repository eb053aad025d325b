import assert from "node:assert/strict";
import { test } from "node:test";
import { allowedEvents, apply, createOrder, next, TransitionError } from "../src/order.mjs";

const DAY = 86_400_000;

test("the happy path", () => {
  assert.equal(next("created", "pay"), "paid");
  assert.equal(next("paid", "ship"), "shipped");
  assert.equal(next("shipped", "deliver"), "delivered");
});

test("cancelling is allowed until shipping", () => {
  assert.equal(next("created", "cancel"), "cancelled");
  assert.equal(next("paid", "cancel"), "cancelled");
  assert.throws(() => next("shipped", "cancel"), /cannot cancel an order that is shipped/);
});

test("apply records each transition", () => {
  const o = apply(apply(createOrder("o1", 10), "pay", 20), "ship", 30);
  assert.equal(o.state, "shipped");
  assert.deepEqual(
    o.history.map((h) => h.state),
    ["created", "paid", "shipped"],
  );
});

test("a delivered order can be refunded within 30 days", () => {
  let o = createOrder("o2", 0);
  for (const e of ["pay", "ship", "deliver"]) o = apply(o, e, DAY);
  assert.equal(apply(o, "refund", 31 * DAY).state, "refunded");
  assert.throws(() => apply(o, "refund", 32 * DAY), /refund window/);
});

test("allowed events and typed errors", () => {
  assert.deepEqual(allowedEvents("paid"), ["cancel", "ship"]);
  assert.throws(() => next("refunded", "pay"), TransitionError);
});
