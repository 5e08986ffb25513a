import { useT } from "../../../components/panel/i18n.ts";
import { Notice, OnceValue, PageHeader } from "../../../components/panel/ui.tsx";
import type { QuickstartAccess } from "../../../lib/accounts/access.ts";
import type { PanelSession } from "../../../lib/accounts/sessions.ts";
import {
  INVITATION_TTL_MS,
  type Member,
  type PendingInvitation,
} from "../../../lib/accounts/team.ts";
import type { BusinessDetails } from "../../../lib/business_details.ts";
import { businessFormValues } from "../../../lib/panel/business_details.ts";
import type { Form, FormProblem } from "../kit/forms.ts";
import { BusinessDetailsCard } from "./business_details.tsx";
import { InvitationsCard } from "./invitations.tsx";
import { MembersCard } from "./members.tsx";
import { PlanCard } from "./plan_card.tsx";

/** What the team page shows after an action: a new link, or a refused form and its values. */
export interface TeamOutcome {
  invited?: { email: string; link: string };
  values?: Form;
  problem?: FormProblem | null;
  /** The business details form as sent, and what is wrong with it. */
  business?: { values: Form; problem: FormProblem };
}

/** The team: members and their roles, invitations, and the organisation's plan. */
export function TeamPage(props: {
  session: PanelSession;
  team: { members: Member[]; invitations: PendingInvitation[] };
  manage: boolean;
  notice: string | null;
  outcome: TeamOutcome;
  quickstartAccess: QuickstartAccess;
  business: BusinessDetails | null;
}) {
  const { session, team, manage, notice, outcome } = props;
  const problem = outcome.problem ?? null;
  const { t } = useT();
  return (
    <>
      <PageHeader
        title={t("panel.team.title")}
        description={t("panel.team.description", { org: session.org.name })}
      />
      {notice && <Notice tone="success">{notice}</Notice>}
      {outcome.invited && (
        <Notice tone="success" title={t("panel.team.invited", { email: outcome.invited.email })}>
          <p>{t("panel.team.invitedText", { days: INVITATION_TTL_MS / 86_400_000 })}</p>
          <OnceValue
            id="invite-link"
            value={outcome.invited.link}
            label={t("panel.team.inviteLink")}
          />
        </Notice>
      )}
      {problem && !outcome.values && <Notice tone="error">{problem.message}</Notice>}
      {outcome.business && (
        <Notice tone="error">
          The business details were not saved: {outcome.business.problem.message}
        </Notice>
      )}
      <MembersCard session={session} members={team.members} manage={manage} />
      {(manage || team.invitations.length > 0) && (
        <InvitationsCard
          session={session}
          invitations={team.invitations}
          manage={manage}
          values={outcome.values ?? {}}
          formProblem={outcome.values ? problem : null}
        />
      )}
      <BusinessDetailsCard
        details={props.business}
        manage={manage}
        csrf={session.csrfToken}
        values={outcome.business?.values ?? businessFormValues(props.business)}
        problem={outcome.business?.problem ?? null}
      />
      <PlanCard
        plan={session.org.plan}
        slug={session.org.slug}
        quickstartAccess={props.quickstartAccess}
      />
    </>
  );
}
