import { toIso } from "../../lib/clock.ts";
import type { Translator } from "../../lib/i18n/mod.ts";
import type { ProviderStatus } from "../../lib/providers/status.ts";
import { useT } from "./i18n.ts";
import { Card } from "./ui.tsx";

/** The provider, its POS and API ("…, POS 300746 at https://…"), or the simulator. */
export function providerText(tr: Translator, status: ProviderStatus): string {
  return status.account
    ? tr.t("panel.provider.account", {
      provider: status.displayName,
      pos: status.account.posId,
      url: status.account.apiUrl,
    })
    : tr.t("panel.provider.sandbox");
}

/** The payment provider this environment runs with, and when it last answered and notified. */
export function ProviderStatusCard(props: { status: ProviderStatus }) {
  const { status } = props;
  const tr = useT();
  const { t } = tr;
  const when = (at: number | null) => at === null ? t("panel.provider.never") : toIso(at);
  return (
    <Card title={t("panel.provider.title")}>
      <dl class="provider-status">
        <dt>{t("panel.provider.provider")}</dt>
        <dd>{providerText(tr, status)}</dd>
        {status.notifyUrl && (
          <>
            <dt>{t("panel.provider.notifyUrl")}</dt>
            <dd>
              <code>{status.notifyUrl}</code>
            </dd>
          </>
        )}
        <dt>{t("panel.provider.lastCall")}</dt>
        <dd>{when(status.lastSuccessAt)}</dd>
        <dt>{t("panel.provider.lastNotification")}</dt>
        <dd>{when(status.lastNotificationAt)}</dd>
      </dl>
    </Card>
  );
}
