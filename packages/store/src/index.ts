export { MIGRATIONS_DIR, type OpenOptions } from "./db.ts";
export type {
  Applied,
  ApplyOptions,
  ClaimedNext,
  ClaimFn,
  ClaimNextOptions,
  DeliveryOptions,
  Transition,
} from "./goals-repo.ts";
export type { Delivery, DeliveryInput } from "./inbox.ts";
export { DEFAULT_WINDOW, type LoadWindow } from "./load.ts";
export type { OutboxItem } from "./outbox.ts";
export type { Projection, ProjectionTarget } from "./projections.ts";
export * as tables from "./schema/index.ts";
export { createStore, type InstallationInput, openStore, type Store } from "./store.ts";
