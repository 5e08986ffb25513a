import { describeItem } from "../../../lib/config_transfer/describe.ts";
import type { ImportPlan, ImportResult } from "../../../lib/config_transfer/import.ts";
import type { Environment } from "../../../lib/config.ts";
import { translateError } from "../../../lib/panel/error_text.ts";
import { CONFIG_TRANSFER_HREF } from "./href.ts";
import { useT } from "../../../components/panel/i18n.ts";
import {
  Card,
  CsrfField,
  Field,
  FormError,
  Notice,
  OnceValue,
  PageHeader,
  TableWrap,
} from "../../../components/panel/ui.tsx";

const OTHER: Record<Environment, Environment> = { sandbox: "production", production: "sandbox" };

/** Developers -> Copy configuration: download this environment's, upload the other's. */
export function ConfigTransferPage(props: {
  environment: Environment;
  csrf: string;
  problem: string | null;
}) {
  const other = OTHER[props.environment];
  const { t } = useT();
  return (
    <>
      <PageHeader title={t("panel.config.title")} description={t("panel.config.description")} />
      <div class="grid grid--2">
        <Card title={t(`panel.config.download.${props.environment}`)}>
          <p>{t("panel.config.downloadText")}</p>
          <a class="button button--secondary" href={`${CONFIG_TRANSFER_HREF}/export`} download>
            {t("panel.config.downloadButton")}
          </a>
        </Card>
        <Card title={t(`panel.config.import.${other}`)}>
          <form
            method="post"
            action={`${CONFIG_TRANSFER_HREF}/plan`}
            enctype="multipart/form-data"
            class="form"
          >
            <CsrfField token={props.csrf} />
            <FormError message={props.problem} />
            <Field
              name="file"
              label={t("panel.config.file")}
              hint={t("panel.config.fileHint")}
            >
              {(attrs) => <input type="file" accept=".json,application/json" required {...attrs} />}
            </Field>
            <button type="submit" class="button button--primary">{t("panel.config.show")}</button>
          </form>
        </Card>
      </div>
    </>
  );
}

/** What an import would do, each item to tick or leave out, with the button that does it. */
export function ConfigPlanPage(
  props: { plan: ImportPlan; text: string; csrf: string; environment: Environment },
) {
  const { plan } = props;
  const tr = useT();
  const { t } = tr;
  const importable = plan.items.filter((item) => item.refusal === null);
  return (
    <>
      <PageHeader
        title={t("panel.config.reviewTitle")}
        description={t("panel.config.reviewDescription", {
          org: plan.file.organisation,
          environment: plan.file.environment,
          at: plan.file.exportedAt,
        })}
      />
      <Card
        title={t(plan.items.length === 0 ? "panel.config.nothing" : "panel.config.willDo")}
      >
        {plan.items.length > 0 && (
          <form
            method="post"
            action={`${CONFIG_TRANSFER_HREF}/apply`}
            enctype="multipart/form-data"
            class="form"
            data-once
          >
            <CsrfField token={props.csrf} />
            <input type="hidden" name="config" value={props.text} />
            <p class="muted">{t("panel.config.chooseHint")}</p>
            <ul class="plan" id="import-plan">
              {plan.items.map((item) => (
                <li key={item.key} class={item.refusal ? "plan__item--refused" : undefined}>
                  {item.refusal === null
                    ? (
                      <label class="check">
                        <input type="checkbox" name="include" value={item.key} checked />
                        <span>{describeItem(item, tr)}</span>
                      </label>
                    )
                    : (
                      <>
                        <span>{describeItem(item, tr)}</span>
                        <p class="field__error">
                          {t("panel.config.refused", {
                            environment: props.environment,
                            reason: translateError(tr, item.refusal),
                          })}
                        </p>
                      </>
                    )}
                </li>
              ))}
            </ul>
            {importable.length > 0 && (
              <button type="submit" class="button button--primary">
                {t("panel.config.applySelected")}
              </button>
            )}
          </form>
        )}
        <p class="muted">{t("panel.config.unchanged", { count: plan.unchanged })}</p>
        <p>
          <a href={CONFIG_TRANSFER_HREF}>{t("panel.config.back")}</a>
        </p>
      </Card>
    </>
  );
}

/** What an import did: the offers' ids here, and each new endpoint's secret, shown once. */
export function ConfigResultPage(props: { result: ImportResult }) {
  const { result } = props;
  const tr = useT();
  const { t } = tr;
  return (
    <>
      <PageHeader title={t("panel.config.importedTitle")} />
      <Notice tone="success">
        {result.applied.length === 0
          ? t("panel.config.nothingChanged")
          : t("panel.config.imported", { count: result.applied.length })}
      </Notice>
      {result.leftOut.length > 0 && (
        <Card title={t("panel.config.leftOut")}>
          <ul class="plan" id="import-left-out">
            {result.leftOut.map((item) => <li key={item.key}>{describeItem(item, tr)}</li>)}
          </ul>
        </Card>
      )}
      {result.createdEndpoints.map((endpoint, index) => (
        <Card title={t("panel.config.newEndpoint", { url: endpoint.url })}>
          <OnceValue
            id={`secret-${index}`}
            value={endpoint.secret}
            label={t("panel.config.secret")}
          />
        </Card>
      ))}
      {result.offers.length > 0 && (
        <Card title={t("panel.config.offers")}>
          <TableWrap label={t("panel.config.offers")}>
            <table class="table" id="offer-mapping">
              <thead>
                <tr>
                  <th>{t("panel.config.offer")}</th>
                  <th>{t("panel.config.there")}</th>
                  <th>{t("panel.config.here")}</th>
                </tr>
              </thead>
              <tbody>
                {result.offers.map((offer) => (
                  <tr>
                    <td>{offer.name}</td>
                    <td>
                      <code>{offer.sourceId}</code>
                    </td>
                    <td>
                      <code>{offer.targetId}</code>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableWrap>
        </Card>
      )}
      <p>
        <a href={CONFIG_TRANSFER_HREF}>{t("panel.config.backTo")}</a>
      </p>
    </>
  );
}
