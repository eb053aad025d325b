/**
 * Issue #212: durations with milliseconds parse as minutes ("1500ms" came back as 25 hours).
 * The inputs from the report, with what they mean.
 */
export const ISSUE_212_CASES = [
  { input: "1500ms", ms: 1_500 },
  { input: "1m500ms", ms: 60_500 },
  { input: "2s250ms", ms: 2_250 },
];
