import { openStore } from "@loopx/store";
import { sharedPglite } from "../support/databases.ts";
import { describeStoreConformance } from "./conformance.ts";

describeStoreConformance("PGlite (embedded)", async () => ({
  store: await openStore({ pglite: await sharedPglite() }),
  cleanup: async () => {},
}));
