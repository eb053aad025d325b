import assert from "node:assert/strict";
import { test } from "node:test";
import { apply, createOrder } from "../src/order.mjs";

const DAY = 86_400_000;

function delivered(at) {
  let o = createOrder("R-1", 0);
  o = apply(o, "pay", 1);
  o = apply(o, "ship", 2);
  return apply(o, "deliver", at);
}

test("refund within 30 days of delivery, counted from delivery", () => {
  const o = delivered(10 * DAY);
  const r = apply(o, "refund", 40 * DAY);
  assert.equal(r.state, "refunded");
  assert.deepEqual(r.history.at(-1), { state: "refunded", event: "refund", at: 40 * DAY });
});

test("a refund after the window is refused", () => {
  const o = delivered(10 * DAY);
  assert.throws(() => apply(o, "refund", 40 * DAY + 1), /refund window/);
});

test("only delivered orders can be refunded, and only once", () => {
  const paid = apply(createOrder("R-2", 0), "pay", 1);
  assert.throws(() => apply(paid, "refund", 2), /cannot refund an order that is paid/);
  const r = apply(delivered(DAY), "refund", 2 * DAY);
  assert.throws(() => apply(r, "refund", 3 * DAY), /cannot refund an order that is refunded/);
});
