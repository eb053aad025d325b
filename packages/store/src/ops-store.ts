/** The operational store, bound to one connection (kept apart from goal state). */
import { type ContentLane, type Reservation, reserveContent } from "./content-budget.ts";
import type { Db } from "./db.ts";
import {
  applyInstallationControls,
  deferOutbox,
  getCursor,
  type InstallationControls,
  isInstallationKilled,
  knownDeliveries,
  type OperationsSnapshot,
  operationsSnapshot,
  ping,
  reviveOutbox,
  setCursor,
} from "./operations.ts";

/** The operational side of the store: what housekeeping and operators read and write. */
export interface OpsStore {
  /** One round trip to the database: the health check. */
  ping(): Promise<void>;
  /** Inbox and outbox lag, dead letters and spend, for /metrics and `loopx status`. */
  snapshot(): Promise<OperationsSnapshot>;
  /** One slot of GitHub's content budget, shared by every replica; or when one frees. */
  reserveContent(installationId: number, lane?: ContentLane): Promise<Reservation>;
  /** Writes the deployment's kill switch and spend ceilings onto every installation row. */
  applyInstallationControls(controls: InstallationControls): Promise<void>;
  isInstallationKilled(installationId: number): Promise<boolean>;
  /** Holds an outbox row back until `until` (GitHub asked to wait), saying why. */
  deferOutbox(id: number, until: Date, why: string): Promise<void>;
  /** Makes a done outbox row due again (its write must be redone). */
  reviveOutbox(id: number): Promise<void>;
  /** Which of these delivery ids the inbox already holds (the reconciler's replay filter). */
  knownDeliveries(ids: string[]): Promise<Set<string>>;
  getCursor(name: string): Promise<string | null>;
  setCursor(name: string, value: string): Promise<void>;
}

export function createOpsStore(db: Db): OpsStore {
  return {
    ping: () => ping(db),
    snapshot: () => operationsSnapshot(db),
    reserveContent: (installationId, lane) => reserveContent(db, installationId, lane),
    applyInstallationControls: (controls) => applyInstallationControls(db, controls),
    isInstallationKilled: (installationId) => isInstallationKilled(db, installationId),
    deferOutbox: (id, until, why) => deferOutbox(db, id, until, why),
    reviveOutbox: (id) => reviveOutbox(db, id),
    knownDeliveries: (ids) => knownDeliveries(db, ids),
    getCursor: (name) => getCursor(db, name),
    setCursor: (name, value) => setCursor(db, name, value),
  };
}
