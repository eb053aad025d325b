import { openStore } from "@loopx/store";
import { inject } from "vitest";
import { freshDatabase } from "../support/databases.ts";
import { describeStoreConformance } from "./conformance.ts";

const serverUrl = inject("pgUrl");

describeStoreConformance(
  "PostgreSQL (postgres.js)",
  async () => {
    if (!serverUrl) throw new Error("unreachable: the suite is skipped without a server");
    const db = await freshDatabase(serverUrl);
    return { store: await openStore({ databaseUrl: db.url }), cleanup: db.drop };
  },
  { skip: serverUrl ? undefined : inject("pgSkipReason") },
);
