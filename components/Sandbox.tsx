import type { Translator } from "../lib/i18n/mod.ts";
import { SANDBOX_TEST_CODES } from "../lib/providers/sandbox.ts";

/** The strip that says no real money moves here, a landmark of its own. */
export function SandboxBanner(props: { t: Translator["t"] }) {
  const { t } = props;
  return (
    <section class="sandbox-banner" aria-label={t("sandbox.region")}>
      <p>
        <strong>{t("sandbox.label")}</strong> <span>{t("sandbox.text")}</span>
      </p>
    </section>
  );
}

const RESULT_KEY = {
  SUCCEEDED: "testCodes.succeeds",
  FAILED: "testCodes.fails",
  "PROCESSING, then FAILED": "testCodes.waitsThenFails",
} as const;

/** The sandbox's test codes, so a developer can try every outcome. */
export function TestCodes(props: { t: Translator["t"] }) {
  const { t } = props;
  return (
    <details class="test-codes" open>
      <summary>{t("testCodes.title")}</summary>
      <table>
        <thead>
          <tr>
            <th scope="col">{t("testCodes.code")}</th>
            <th scope="col">{t("testCodes.result")}</th>
          </tr>
        </thead>
        <tbody>
          {SANDBOX_TEST_CODES.map((entry) => (
            <tr>
              <td>
                <code>{entry.code === "other" ? t("testCodes.other") : entry.code}</code>
              </td>
              <td>
                {t(RESULT_KEY[entry.result])}
                {entry.failureCode && <span class="test-codes__why">({entry.failureCode})</span>}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}
