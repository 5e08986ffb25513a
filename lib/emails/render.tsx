import { renderToString } from "preact-render-to-string";
import { CustomerEmail } from "../../components/emails/CustomerEmail.tsx";
import { emailParts, emailText } from "./content.ts";
import type { EmailModel, RenderedEmail } from "./facts.ts";

/** Renders a customer e-mail: subject, plain text and HTML, all in the model's language. */
export function renderEmail(model: EmailModel): RenderedEmail {
  const parts = emailParts(model);
  return {
    language: model.language,
    subject: parts.subject,
    text: emailText(parts),
    html: `<!doctype html>${
      renderToString(<CustomerEmail parts={parts} language={model.language} />)
    }`,
  };
}
