/**
 * The tick harness on its own real-PostgreSQL database with a scripted model server, and the
 * repository's tick workflow set up to reach it: what the claude and codex scenarios share.
 */
import { openStore, type Store } from "@loopx/store";
import { freshDatabase } from "./databases.ts";
import { startTickHarness, type TickHarness } from "./tick-api-harness.ts";
import { useTickWorkflow } from "./tick-workflow-runs.ts";

export interface ModelTicks<M> {
  h: TickHarness;
  model: M;
  close(): Promise<void>;
}

export async function startModelTicks<M extends { close(): Promise<void> }>(opts: {
  serverUrl: string;
  startModel: () => Promise<M>;
  /** The workflow's `.github/loopx.yml`, variables and secrets, given the model's server. */
  workflow: (model: M) => Parameters<typeof useTickWorkflow>[1];
  /** Undoes what the caller changed for the scenario, after everything else is closed. */
  restore?: () => void;
}): Promise<ModelTicks<M>> {
  const db = await freshDatabase(opts.serverUrl);
  let store: Store | undefined;
  let model: M | undefined;
  let h: TickHarness | undefined;
  const close = async () => {
    await h?.close();
    await model?.close();
    await store?.close();
    await db.drop();
    opts.restore?.();
  };
  try {
    store = await openStore({ databaseUrl: db.url });
    model = await opts.startModel();
    h = await startTickHarness({ store });
    useTickWorkflow(h, opts.workflow(model));
    return { h, model, close };
  } catch (error) {
    await close();
    throw error;
  }
}
