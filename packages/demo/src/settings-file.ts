/**
 * The demo's deployment as KEY=VALUE settings — what an operator would export for `npm start`
 * against this sandbox — so `loopx doctor --settings .loopx/demo.env` checks the running demo
 * exactly as it checks a real deployment. It holds the App's private key: owner-only file.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";

export interface DemoSettings {
  appId: number;
  privateKey: string;
  webhookSecret: string;
  /** The sandbox's GHES-style API base (what GITHUB_API_URL is for GHES). */
  apiUrl: string;
  database: { url: string } | { dataDir: string };
  appUrl: string;
  /** The demo owner's token, for `loopx doctor owner/repo`. */
  ownerToken: string;
}

export function writeDemoSettings(path: string, s: DemoSettings): void {
  const entries: Array<[string, string]> = [
    ["APP_ID", String(s.appId)],
    ["PRIVATE_KEY", s.privateKey],
    ["WEBHOOK_SECRET", s.webhookSecret],
    ["GITHUB_API_URL", s.apiUrl],
    "url" in s.database ? ["DATABASE_URL", s.database.url] : ["LOOPX_DATA_DIR", s.database.dataDir],
    ["LOOPX_URL", s.appUrl],
    // The deployment's own URL: its OIDC audience.
    ["LOOPX_PUBLIC_URL", s.appUrl],
    ["GITHUB_TOKEN", s.ownerToken],
  ];
  // Double-quoted values keep the key's newlines (dotenv and node:util parseEnv expand \n).
  const lines = entries.map(([k, v]) => `${k}="${v.replaceAll("\n", "\\n")}"`);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `# written by npm run demo; valid while it runs\n${lines.join("\n")}\n`, {
    mode: 0o600,
  });
}
