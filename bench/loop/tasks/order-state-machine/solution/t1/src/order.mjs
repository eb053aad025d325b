/** Where an order can go from each state, by event. */
const TRANSITIONS = {
  created: { pay: "paid", cancel: "cancelled" },
  paid: { ship: "shipped", cancel: "cancelled" },
  shipped: { deliver: "delivered" },
  delivered: {},
  cancelled: {},
};

/** The state an order in `state` moves to on `event`; throws when the event is not allowed. */
export function next(state, event) {
  const to = TRANSITIONS[state]?.[event];
  if (to === undefined) throw new Error(`cannot ${event} an order that is ${state}`);
  return to;
}

/** A new order; `at` is when it was created (ms since the epoch). */
export function createOrder(id, at) {
  return { id, state: "created", history: [{ state: "created", event: null, at }] };
}

/** The order after `event` at `at`; the order given is left as it was (callers keep snapshots). */
export function apply(order, event, at) {
  const state = next(order.state, event);
  return { ...order, state, history: [...order.history, { state, event, at }] };
}
