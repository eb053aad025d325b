export * from "./goals.ts";
export * from "./ledger.ts";
export * from "./operations.ts";
export * from "./projections.ts";
export * from "./records.ts";
export * from "./tick-api.ts";
export * from "./work.ts";
