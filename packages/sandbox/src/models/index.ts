/**
 * Scripted local model servers for driving the real `claude` (Anthropic Messages API) and
 * `codex` (OpenAI Responses API) CLIs on loopback: the demo and the tests use these.
 */
export * from "./scripted-anthropic.ts";
export { isRecord, userTextOf } from "./scripted-http.ts";
export * from "./scripted-openai.ts";
