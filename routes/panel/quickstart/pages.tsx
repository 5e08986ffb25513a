import { Island } from "../../../components/Island.tsx";
import { rich, useT } from "../../../components/panel/i18n.ts";
import { Card, PageHeader } from "../../../components/panel/ui.tsx";
import type { QuickStartProps } from "../../../islands/QuickStart.tsx";

/** The Quick Start in production: it takes test payments, so it points to the sandbox's. */
export function QuickstartElsewherePage(props: { sandboxUrl: string }) {
  const { t } = useT();
  return (
    <>
      <PageHeader title={t("panel.qs.page.title")} />
      <Card>
        <p>
          {t("panel.qs.page.elsewhere")} <a href={props.sandboxUrl}>{t("panel.qs.page.open")}</a>.
        </p>
      </Card>
    </>
  );
}

/** The interactive Quick Start: one step per API call, each run for real in the sandbox. */
export function QuickstartPage(props: { orgName: string; quickStart: QuickStartProps }) {
  const tr = useT();
  return (
    <>
      <PageHeader
        title={tr.t("panel.qs.page.title")}
        description={rich(tr, "panel.qs.page.description", {
          baseUrl: <code>{props.quickStart.baseUrl}</code>,
        }, { org: props.orgName })}
      />
      <Island name="QuickStart" props={props.quickStart} />
    </>
  );
}
