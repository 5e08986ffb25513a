/** The link to a customer page in the other language: its address, language and name. */
export interface LanguageSwitchLink {
  href: string;
  lang: string;
  label: string;
}

/** A plain link to the page in the other language, so it works without JavaScript. */
export function LanguageSwitch(props: { link: LanguageSwitchLink }) {
  const { link } = props;
  return (
    <p class="language-switch">
      <a href={link.href} lang={link.lang} hreflang={link.lang}>{link.label}</a>
    </p>
  );
}
