/** Team and plan: members, invitations, the plan. */
export const panelTeam = {
  "panel.team.roleChanged": "Role changed. It applies from their next click.",
  "panel.team.removed": "Member removed; their sessions in this organisation ended.",
  "panel.team.revoked": "Invitation withdrawn; its link no longer works.",
} as const;
