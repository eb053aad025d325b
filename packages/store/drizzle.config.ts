import { defineConfig } from "drizzle-kit";

// Paths are relative to the working directory: `npm run db:generate` runs at the repo root.
export default defineConfig({
  dialect: "postgresql",
  schema: "packages/store/src/schema/index.ts",
  out: "migrations",
});
