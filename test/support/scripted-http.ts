// Shared with the demo's scripted model (app/src/demo); kept here for the OpenAI one's imports.
export * from "../../app/src/demo/scripted-http.ts";
