import { ZxcvbnFactory } from "@zxcvbn-ts/core";
import * as common from "@zxcvbn-ts/language-common";
import * as english from "@zxcvbn-ts/language-en";

/** zxcvbn's score of a password people may choose: "safely unguessable" and up. */
const MIN_PASSWORD_SCORE = 3;

let estimator: ZxcvbnFactory | undefined;

/**
 * The estimator, built at the first password someone chooses: building its dictionaries takes
 * most of a second, which a start or a sign-in should not pay. (Imported statically all the
 * same: `deno compile` embeds only what the module graph shows.)
 */
function loadEstimator(): ZxcvbnFactory {
  estimator ??= new ZxcvbnFactory({
    dictionary: { ...common.dictionary, ...english.dictionary },
    graphs: common.adjacencyGraphs,
    translations: english.translations,
  });
  return estimator;
}

/** Words a guesser would try first for this person: their address, its parts, their name. */
function personalWords(person: { email: string; name?: string | null }): string[] {
  const words = ["paystead", person.email, ...person.email.split(/[^\p{L}\p{N}]+/u)];
  if (person.name) words.push(person.name, ...person.name.split(/\s+/));
  return words.filter((word) => word.length >= 3).map((word) => word.toLowerCase());
}

/**
 * Why a password is too easy to guess, with zxcvbn's advice on a better one; null when it
 * scores at least `MIN_PASSWORD_SCORE`.
 */
export function guessablePasswordProblem(
  password: string,
  person: { email: string; name?: string | null },
): string | null {
  const result = loadEstimator().check(password, personalWords(person));
  if (result.score >= MIN_PASSWORD_SCORE) return null;
  const { warning, suggestions } = result.feedback;
  return [
    "This password is too easy to guess.",
    warning,
    ...suggestions,
    "Four or five unrelated words, or a password manager's random one, are hard to guess.",
  ].filter((line) => line).join(" ");
}
