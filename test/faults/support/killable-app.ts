/**
 * The App as a real process on the sandbox and a fresh PostgreSQL database, for the scenarios
 * that SIGKILL it and start another on the same store.
 */
import { openStore, type Store } from "@loopx/store";
import { createSandbox, type Sandbox } from "../../../packages/sandbox/src/index.ts";
import { TICK_WORKFLOW } from "../../support/app-harness.ts";
import { freshDatabase } from "../../support/databases.ts";
import { type AppProcess, appProcessEnv, startAppProcess } from "./app-process.ts";

export interface KillableApp {
  sandbox: Sandbox;
  /** The App's store, opened by the test (the process opens its own). */
  store: Store;
  /** The processes started and not yet killed or stopped, oldest first. */
  running: AppProcess[];
  /** Starts another App process on the same store; webhooks go to it from now on. */
  start(): Promise<AppProcess>;
  close(): Promise<void>;
}

export async function startKillableApp(opts: {
  serverUrl: string;
  webhookSecret: string;
  collaborators: Record<string, "maintain" | "write" | "triage" | "read">;
}): Promise<KillableApp> {
  const sandbox = await createSandbox({ webhookSecret: opts.webhookSecret });
  sandbox.runner.enabled = false;
  sandbox.createRepo("acme/widgets", {
    files: { ".github/workflows/loopx-tick.yml": TICK_WORKFLOW },
    collaborators: opts.collaborators,
  });
  const { app, privateKey } = sandbox.createApp({ slug: "loopx" });
  if (!privateKey) throw new Error("the sandbox made no private key");
  const db = await freshDatabase(opts.serverUrl);
  const store = await openStore({ databaseUrl: db.url });
  const env = appProcessEnv({
    sandbox,
    appId: app.id,
    privateKey,
    webhookSecret: opts.webhookSecret,
    databaseUrl: db.url,
  });
  const running: AppProcess[] = [];
  const start = async () => {
    const process = await startAppProcess(env);
    running.push(process);
    sandbox.setWebhookUrl(`${process.base}/api/github/webhooks`);
    return process;
  };
  await start();
  sandbox.install(app.id, "acme", ["acme/widgets"]);
  await sandbox.settle();
  return {
    sandbox,
    store,
    running,
    start,
    async close() {
      for (const p of running.splice(0)) await p.kill();
      await store.close();
      await sandbox.stop();
      await db.drop();
    },
  };
}
