import { Island } from "../../../components/Island.tsx";
import { Card, PageHeader } from "../../../components/panel/ui.tsx";
import type { QuickStartProps } from "../../../islands/QuickStart.tsx";

/** The Quick Start in production: it takes test payments, so it points to the sandbox's. */
export function QuickstartElsewherePage(props: { sandboxUrl: string }) {
  return (
    <>
      <PageHeader title="Quick Start" />
      <Card>
        <p>
          The Quick Start takes test payments, so it runs in the sandbox, where no real money moves.
          {" "}
          <a href={props.sandboxUrl}>Open it in the sandbox</a>.
        </p>
      </Card>
    </>
  );
}

/** The interactive Quick Start: one step per API call, each run for real in the sandbox. */
export function QuickstartPage(props: { orgName: string; quickStart: QuickStartProps }) {
  return (
    <>
      <PageHeader
        title="Quick Start"
        description={
          <>
            Take a payment end to end in the sandbox of{" "}
            {props.orgName}. Each step runs for real; the curl next to it does the same from your
            terminal against <code>{props.quickStart.baseUrl}</code>.
          </>
        }
      />
      <Island name="QuickStart" props={props.quickStart} />
    </>
  );
}
