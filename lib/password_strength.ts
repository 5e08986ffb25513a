import type { ZxcvbnFactory } from "@zxcvbn-ts/core";
import type { Language } from "./i18n/languages.ts";
import type { translator } from "./i18n/mod.ts";

/** zxcvbn's score of a password people may choose: "safely unguessable" and up. */
const MIN_PASSWORD_SCORE = 3;

/** zxcvbn's advice, by its key (`warnings.commonNames`), in each language. */
type Advice = Record<string, Record<string, string>>;

interface Estimator {
  factory: ZxcvbnFactory;
  /** The English advice's keys, by its text: zxcvbn answers in English, we say it again. */
  keyOfEnglish: Map<string, string>;
  advice: Record<Language, Advice>;
  /** The catalogues' translator, loaded with zxcvbn: the API's modules hold no catalogue. */
  translator: typeof translator;
}

let estimator: Promise<Estimator> | undefined;

/**
 * The estimator, loaded and built at the first password someone chooses: its dictionaries take
 * about 39 MiB of heap (72 MiB resident; 29 and 64 without the Polish ones) once imported and up
 * to two seconds to build, which a running payment API should not hold or a start pay. The imports are string literals, so
 * `deno compile` still embeds them. Polish words count as guessable too (Paystead's merchants
 * are Polish), under their own dictionary names so they replace none of the English ones.
 */
function loadEstimator(): Promise<Estimator> {
  estimator ??= Promise.all([
    import("@zxcvbn-ts/core"),
    import("@zxcvbn-ts/language-common"),
    import("@zxcvbn-ts/language-en"),
    import("@zxcvbn-ts/language-pl"),
    import("./i18n/mod.ts"),
  ]).then(([{ ZxcvbnFactory }, common, english, polish, i18n]) => {
    const polishWords = Object.fromEntries(
      Object.entries(polish.dictionary).map(([name, words]) => [`${name}Pl`, words]),
    );
    const keyOfEnglish = new Map<string, string>();
    for (const [group, texts] of Object.entries(english.translations as Advice)) {
      for (const [key, text] of Object.entries(texts)) keyOfEnglish.set(text, `${group}.${key}`);
    }
    return {
      factory: new ZxcvbnFactory({
        dictionary: { ...common.dictionary, ...english.dictionary, ...polishWords },
        graphs: common.adjacencyGraphs,
        translations: english.translations,
      }),
      keyOfEnglish,
      advice: {
        en: english.translations as Advice,
        pl: polish.translations as unknown as Advice,
      },
      translator: i18n.translator,
    };
  });
  return estimator;
}

/** One line of zxcvbn's English advice in `language` (English when it has no such line). */
function adviceIn(found: Estimator, language: Language, english: string): string {
  const [group, key] = found.keyOfEnglish.get(english)?.split(".") ?? [];
  return (group && found.advice[language][group]?.[key]) || english;
}

/** Words a guesser would try first for this person: their address, its parts, their name. */
function personalWords(person: { email: string; name?: string | null }): string[] {
  const words = ["paystead", person.email, ...person.email.split(/[^\p{L}\p{N}]+/u)];
  if (person.name) words.push(person.name, ...person.name.split(/\s+/));
  return words.filter((word) => word.length >= 3).map((word) => word.toLowerCase());
}

/**
 * Why a password is too easy to guess, with zxcvbn's advice on a better one, in `language`;
 * null when it scores at least `MIN_PASSWORD_SCORE`.
 */
export async function guessablePasswordProblem(
  password: string,
  person: { email: string; name?: string | null },
  language: Language = "en",
): Promise<string | null> {
  const found = await loadEstimator();
  const result = found.factory.check(password, personalWords(person));
  if (result.score >= MIN_PASSWORD_SCORE) return null;
  const { warning, suggestions } = result.feedback;
  const { t } = found.translator(language);
  return [
    t("panel.password.tooEasy"),
    ...[warning, ...suggestions].filter((line): line is string => !!line)
      .map((line) => adviceIn(found, language, line)),
    t("panel.password.advice"),
  ].join(" ");
}
