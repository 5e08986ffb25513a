import { Card, Notice } from "../../../components/panel/ui.tsx";
import { useT } from "../../../components/panel/i18n.ts";
import { formatSize, type OffsiteOverview } from "../../../lib/panel/backups.ts";

/** An owner's view of the encrypted copies kept off the machine, and of a failure to make one. */
export function OffsiteCard(props: { offsite: OffsiteOverview }) {
  const { offsite } = props;
  const tr = useT();
  const { t } = tr;
  return (
    <Card title={t("panel.offsite.title")} id="offsite">
      {offsite.failure && (
        <Notice tone="error" title={t("panel.offsite.failing")}>
          {t("panel.offsite.failingText", {
            since: offsite.failure.since,
            at: offsite.failure.at,
            message: offsite.failure.message,
          })}
        </Notice>
      )}
      {offsite.copies.length === 0
        ? <p>{t("panel.offsite.none", { destination: offsite.destination })}</p>
        : (
          <table class="table">
            <caption class="visually-hidden">{t("panel.offsite.caption")}</caption>
            <thead>
              <tr>
                <th scope="col">{t("panel.offsite.database")}</th>
                <th scope="col">{t("panel.offsite.copiedAt")}</th>
                <th scope="col">{t("panel.offsite.size")}</th>
                <th scope="col">{t("panel.offsite.restoreWith")}</th>
              </tr>
            </thead>
            <tbody>
              {offsite.copies.map((copy) => (
                <tr>
                  <td>
                    {copy.database === "accounts"
                      ? t("panel.offsite.accountsDatabase")
                      : t("panel.offsite.environmentDatabase", {
                        environment: offsite.environment,
                      })}
                  </td>
                  <td>{copy.at}</td>
                  <td>{formatSize(copy.sizeBytes, tr.language)}</td>
                  <td>
                    <code>restore --from {copy.url}</code>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
    </Card>
  );
}
