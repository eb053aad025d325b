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
