import { SANDBOX_TEST_CODES } from "../lib/providers/sandbox.ts";

/** The strip that says no real money moves here. */
export function SandboxBanner() {
  return (
    <p class="sandbox-banner">
      <strong>Sandbox</strong> <span>Test mode: no real money moves.</span>
    </p>
  );
}

const RESULT_TEXT: Record<string, string> = {
  SUCCEEDED: "Succeeds",
  FAILED: "Fails",
  "PROCESSING, then FAILED": "Waits, then fails",
};

/** The sandbox's test codes, so a developer can try every outcome. */
export function TestCodes() {
  return (
    <details class="test-codes" open>
      <summary>Sandbox test codes</summary>
      <table>
        <thead>
          <tr>
            <th scope="col">Code</th>
            <th scope="col">Result</th>
          </tr>
        </thead>
        <tbody>
          {SANDBOX_TEST_CODES.map((entry) => (
            <tr>
              <td>
                <code>{entry.code === "other" ? "any other" : entry.code}</code>
              </td>
              <td>
                {RESULT_TEXT[entry.result]}
                {entry.failureCode && <span class="test-codes__why">({entry.failureCode})</span>}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}
