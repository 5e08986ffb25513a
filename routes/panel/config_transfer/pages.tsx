import { describeItem } from "../../../lib/config_transfer/describe.ts";
import type { ImportPlan, ImportResult } from "../../../lib/config_transfer/import.ts";
import type { Environment } from "../../../lib/config.ts";
import { CONFIG_TRANSFER_HREF } from "./href.ts";
import {
  Card,
  CsrfField,
  Field,
  FormError,
  Notice,
  OnceValue,
  PageHeader,
} from "../../../components/panel/ui.tsx";

const OTHER: Record<Environment, Environment> = { sandbox: "production", production: "sandbox" };

/** Developers -> Copy configuration: download this environment's, upload the other's. */
export function ConfigTransferPage(props: {
  environment: Environment;
  csrf: string;
  problem: string | null;
}) {
  const other = OTHER[props.environment];
  return (
    <>
      <PageHeader
        title="Copy configuration"
        description={`Move offers, webhook endpoints and checkout settings between sandbox and production, deliberately.`}
      />
      <div class="grid grid--2">
        <Card title={`Download this ${props.environment} configuration`}>
          <p>
            A file with your offers, webhook endpoints (never their signing secrets) and the origins
            allowed to embed checkout. API keys are never in it. Keep it private: it names your
            endpoints.
          </p>
          <a class="button button--secondary" href={`${CONFIG_TRANSFER_HREF}/export`} download>
            Download configuration
          </a>
        </Card>
        <Card title={`Import a file from ${other}`}>
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
              label="Configuration file"
              hint="You will see what it creates and changes before anything is written."
            >
              {(attrs) => <input type="file" accept=".json,application/json" required {...attrs} />}
            </Field>
            <button type="submit" class="button button--primary">Show the changes</button>
          </form>
        </Card>
      </div>
    </>
  );
}

/** What an import would do, with the button that does it. */
export function ConfigPlanPage(props: { plan: ImportPlan; text: string; csrf: string }) {
  const { plan } = props;
  return (
    <>
      <PageHeader
        title="Review the import"
        description={`From '${plan.file.organisation}' in ${plan.file.environment}, exported ${plan.file.exportedAt}.`}
      />
      <Card title={plan.items.length === 0 ? "Nothing to change" : "This import will"}>
        {plan.items.length > 0 && (
          <ul class="plan" id="import-plan">
            {plan.items.map((item, index) => <li key={index}>{describeItem(item)}</li>)}
          </ul>
        )}
        <p class="muted">{plan.unchanged} already match.</p>
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
            <button type="submit" class="button button--primary">
              Import {plan.items.length} change{plan.items.length === 1 ? "" : "s"}
            </button>
          </form>
        )}
        <p>
          <a href={CONFIG_TRANSFER_HREF}>Back</a>
        </p>
      </Card>
    </>
  );
}

/** What an import did: the offers' ids here, and each new endpoint's secret, shown once. */
export function ConfigResultPage(props: { result: ImportResult }) {
  const { result } = props;
  return (
    <>
      <PageHeader title="Configuration imported" />
      <Notice tone="success">
        {result.plan.items.length === 0
          ? "Nothing changed: the configuration was already imported."
          : `Imported ${result.plan.items.length} change${
            result.plan.items.length === 1 ? "" : "s"
          }.`}
      </Notice>
      {result.createdEndpoints.map((endpoint, index) => (
        <Card title={`New webhook endpoint ${endpoint.url}`}>
          <OnceValue
            id={`secret-${index}`}
            value={endpoint.secret}
            label="Signing secret: shown this once, put it in your receiver now"
          />
        </Card>
      ))}
      {result.offers.length > 0 && (
        <Card title="Offers: qrId there and here">
          <table class="table" id="offer-mapping">
            <thead>
              <tr>
                <th>Offer</th>
                <th>qrId there</th>
                <th>qrId here</th>
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
        </Card>
      )}
      <p>
        <a href={CONFIG_TRANSFER_HREF}>Back to Copy configuration</a>
      </p>
    </>
  );
}
