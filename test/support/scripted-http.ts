// Shared with the demo's scripted model (packages/demo); kept here for the OpenAI one's imports.
export * from "../../packages/demo/src/scripted-http.ts";
