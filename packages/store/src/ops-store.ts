/** The operational side of the store, bound to one connection (kept apart from goal state). */
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

export function createOpsStore(db: Db) {
  return {
    ping: (): Promise<void> => ping(db),
    snapshot: (): Promise<OperationsSnapshot> => operationsSnapshot(db),
    reserveContent: (installationId: number, lane?: ContentLane): Promise<Reservation> =>
      reserveContent(db, installationId, lane),
    applyInstallationControls: (controls: InstallationControls) =>
      applyInstallationControls(db, controls),
    isInstallationKilled: (installationId: number) => isInstallationKilled(db, installationId),
    deferOutbox: (id: number, until: Date, why: string) => deferOutbox(db, id, until, why),
    reviveOutbox: (id: number) => reviveOutbox(db, id),
    knownDeliveries: (ids: string[]) => knownDeliveries(db, ids),
    getCursor: (name: string) => getCursor(db, name),
    setCursor: (name: string, value: string) => setCursor(db, name, value),
  };
}

export type OpsStore = ReturnType<typeof createOpsStore>;
