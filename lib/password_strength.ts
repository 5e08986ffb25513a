import type { ZxcvbnFactory } from "@zxcvbn-ts/core";

/** zxcvbn's score of a password people may choose: "safely unguessable" and up. */
const MIN_PASSWORD_SCORE = 3;

let estimator: Promise<ZxcvbnFactory> | undefined;

/**
 * The estimator, loaded and built at the first password someone chooses: its dictionaries take
 * about 26 MiB of heap (49 MiB resident) once imported and most of a second to build, which a
 * running payment API should not hold or a start pay. The imports are string literals, so
 * `deno compile` still embeds them.
 */
function loadEstimator(): Promise<ZxcvbnFactory> {
  estimator ??= Promise.all([
    import("@zxcvbn-ts/core"),
    import("@zxcvbn-ts/language-common"),
    import("@zxcvbn-ts/language-en"),
  ]).then(([{ ZxcvbnFactory }, common, english]) =>
    new ZxcvbnFactory({
      dictionary: { ...common.dictionary, ...english.dictionary },
      graphs: common.adjacencyGraphs,
      translations: english.translations,
    })
  );
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
export async function guessablePasswordProblem(
  password: string,
  person: { email: string; name?: string | null },
): Promise<string | null> {
  const result = (await loadEstimator()).check(password, personalWords(person));
  if (result.score >= MIN_PASSWORD_SCORE) return null;
  const { warning, suggestions } = result.feedback;
  return [
    "This password is too easy to guess.",
    warning,
    ...suggestions,
    "Four or five unrelated words, or a password manager's random one, are hard to guess.",
  ].filter((line) => line).join(" ");
}
