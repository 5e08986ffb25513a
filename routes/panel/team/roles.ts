import type { Translator } from "../../../lib/i18n/mod.ts";
import type { Role } from "../../../lib/plans.ts";

/** What each role may do, in a sentence, in the translator's language. */
export function roleHint(tr: Translator, role: Role): string {
  return tr.t(`panel.team.hint.${role}`);
}

/** A role as people read it: "Owner", "Admin", "Member" (or their Polish names). */
export function roleLabel(tr: Translator, role: Role): string {
  return tr.t(`panel.role.${role}`);
}
