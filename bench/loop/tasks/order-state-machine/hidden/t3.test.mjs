import assert from "node:assert/strict";
import { test } from "node:test";
import { allowedEvents, apply, createOrder, next, TransitionError } from "../src/order.mjs";

test("allowedEvents lists each state's events, sorted", () => {
  assert.deepEqual(allowedEvents("created"), ["cancel", "pay"]);
  assert.deepEqual(allowedEvents("shipped"), ["deliver"]);
  assert.deepEqual(allowedEvents("delivered"), ["refund"]);
  assert.deepEqual(allowedEvents("cancelled"), []);
  assert.throws(() => allowedEvents("lost"), TypeError);
});

test("refused events throw a TransitionError carrying state and event", () => {
  try {
    next("shipped", "cancel");
    assert.fail("expected a TransitionError");
  } catch (e) {
    assert.ok(e instanceof TransitionError);
    assert.ok(e instanceof Error);
    assert.equal(e.state, "shipped");
    assert.equal(e.event, "cancel");
    assert.match(e.message, /cannot cancel an order that is shipped/);
  }
});

test("a late refund is a TransitionError too", () => {
  let o = createOrder("T-1", 0);
  for (const e of ["pay", "ship", "deliver"]) o = apply(o, e, 0);
  assert.throws(
    () => apply(o, "refund", 31 * 86_400_000),
    (e) => e instanceof TransitionError && e.event === "refund" && /refund window/.test(e.message),
  );
});
