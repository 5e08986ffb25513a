import type { panelTeam as english } from "../en/panel_team.ts";

/** Zespół i plan: członkowie, zaproszenia, plan. */
export const panelTeam: { readonly [K in keyof typeof english]: string } = {
  "panel.team.roleChanged":
    "Rola została zmieniona. Obowiązuje od następnego kliknięcia tej osoby.",
  "panel.team.removed":
    "Członek zespołu został usunięty; jego sesje w tej organizacji zostały zakończone.",
  "panel.team.revoked": "Zaproszenie zostało wycofane; link już nie działa.",
};
